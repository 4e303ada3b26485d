/**
 * POST /v1/search: the providers' ranked results, each page scraped in parallel through the same
 * pipeline as /v1/scrape (core/features/search). Cache use is in `X-Trawl-Cache` (the providers'
 * list), provider and scrape time in `Server-Timing`.
 */
import { SearchTokens } from '../../../core/features/search/index.ts';
import { defineRoutes, route } from '../../route.ts';
import type { SearchRequest } from '../../../core/features/search/request.ts';
import { scrapeHeaders } from '../../timing.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentSearch } from '../../wire/v1/present.ts';
import { v1SearchSchema } from '../../wire/v1/request.ts';
import { searchOpenApi } from '../../wire/v1/search.docs.ts';

export const searchModule = defineRoutes({
  name: 'search',
  needs: { search: SearchTokens.Service },
  routes: ({ search }) => [
    route<SearchRequest>({
      method: 'POST',
      path: '/v1/search',
      input: v1SearchSchema,
      // The query, and every result page it may scrape; pages not delivered (fewer results, failed scrapes) are given back.
      meter: {
        endpoint: 'search',
        units: (body) => ({ search: 1, searchResult: body.scrape ? body.numResults : 0 }),
        key: (body) => body.query,
      },
      async handle({ request, workspace, body, usage }) {
        const outcome = await search.search(body, workspace, request.signal, v1Field);
        if (body.scrape) usage.undelivered = { searchResult: body.numResults - outcome.results.filter((r) => r.page).length };
        return Response.json(presentSearch(outcome), { headers: scrapeHeaders(outcome.cached, outcome.timings) });
      },
    }),
  ],
  openapi: () => searchOpenApi,
});
