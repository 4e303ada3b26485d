/**
 * POST /v1/scrape: one URL in, the requested formats and metadata out. Timings go to the
 * `Server-Timing` header and cache hits are marked with `X-Trawl-Cache`. Its OpenAPI is in
 * server/wire/v1/scrape.docs.ts (large, and mostly the result's shape).
 */
import type { Scraper } from '../../../core/scrape.ts';
import { CoreTokens } from '../../../core/tokens.ts';
import type { ScrapeRequest } from '../../../core/model/request.ts';
import { pluginContributions } from '../../plugin-api.ts';
import { defineRoutes, route, type RouteRequest } from '../../route.ts';
import { scrapeHeaders } from '../../timing.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentResult } from '../../wire/v1/present.ts';
import { v1ScrapeSchema } from '../../wire/v1/request.ts';
import { scrapeOpenApi } from '../../wire/v1/scrape.docs.ts';

async function scrape(scraper: Scraper, { request, workspace, body, usage }: RouteRequest<ScrapeRequest>): Promise<Response> {
  const outcome = await scraper.scrape(body, workspace, request.signal, v1Field);
  if (outcome.resultId) usage.resultId = outcome.resultId;
  if (body.storeInCache === false) usage.noCopy = true;
  return Response.json(presentResult(outcome.result), { headers: scrapeHeaders(outcome.cached, outcome.timings) });
}

export const scrapeModule = defineRoutes({
  name: 'scrape',
  needs: { scraper: CoreTokens.Scraper },
  routes: ({ scraper }) => [
    route<ScrapeRequest>({
      method: 'POST',
      path: '/v1/scrape',
      input: v1ScrapeSchema(scraper.request),
      // A cached answer costs the same as a fresh one; the `query`, `extract` and `summary` formats add a language-model call each.
      meter: { endpoint: 'scrape', units: (body) => ({ scrape: 1, ...scraper.formatUnits(body.formats) }), url: (body) => body.url },
      handle: (input) => scrape(scraper, input),
    }),
  ],
  openapi: ({ scraper }, env) => scrapeOpenApi(scraper.knownFormats(), v1ScrapeSchema(scraper.request), pluginContributions(env.registry)),
});
