/**
 * POST /v2/search: web search (core/features/search) in Firecrawl's v2 shape, results grouped by
 * source (`data.web`), each result page scraped into `scrapeOptions.formats` when there are any.
 */
import { SearchTokens } from '../../../core/features/search/index.ts';
import { CoreTokens, Tokens } from '../../../core/tokens.ts';
import { applyV2Proxy } from '../../wire/v2/proxy.ts';
import { defineRoutes, route } from '../../route.ts';
import { scrapeHeaders } from '../../timing.ts';
import { presentSearch } from '../../wire/v2/present.ts';
import { v2SearchSchema } from '../../wire/v2/request.ts';
import { v2FieldName } from '../../wire/v2/scrape-options.ts';
import { v2SearchOpenApi } from '../../wire/v2/openapi.docs.ts';
import { V2_ERRORS } from './shared.ts';

export const v2SearchModule = defineRoutes({
  name: 'v2-search',
  errors: V2_ERRORS,
  needs: { search: SearchTokens.Service, scraper: CoreTokens.Scraper, config: Tokens.Config },
  routes: ({ search, scraper, config }) => [
    route({
      method: 'POST',
      path: '/v2/search',
      input: v2SearchSchema(scraper.request),
      // The query, and every result page it may scrape; pages not delivered are given back.
      meter: {
        endpoint: 'search',
        units: ({ request }) => ({ search: 1, searchResult: request.scrape ? request.numResults : 0 }),
        key: ({ request }) => request.query,
      },
      async handle({ request, workspace, body, usage }) {
        if (body.request.scrape) applyV2Proxy(config, body.proxy, (body.request.scrapeOptions ??= {}), 'scrapeOptions.proxy');
        const outcome = await search.search(body.request, workspace, request.signal, v2FieldName);
        if (body.request.scrape)
          usage.undelivered = { searchResult: body.request.numResults - outcome.results.filter((r) => r.page).length };
        const options = { formats: body.request.formats, actions: body.request.scrapeOptions?.actions };
        return Response.json(presentSearch(outcome, options, body.warnings), { headers: scrapeHeaders(outcome.cached, outcome.timings) });
      },
    }),
  ],
  openapi: ({ scraper }) => v2SearchOpenApi(scraper.request),
});
