/**
 * POST /v1/scrape: one URL in, the requested formats and metadata out. Timings go to the
 * `Server-Timing` header and cache hits are marked with `X-Trawl-Cache`. Its OpenAPI is in
 * scrape-openapi.ts (large, and mostly the result's shape).
 */
import type { Scraper } from '../../../core/scrape.ts';
import { CoreTokens } from '../../../core/services.ts';
import { readJsonBody } from '../../body.ts';
import { pluginContributions } from '../../plugin-api.ts';
import { defineRoutes, type RouteRequest } from '../../route.ts';
import { scrapeHeaders } from '../../timing.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentResult } from '../../wire/v1/present.ts';
import { v1ScrapeSchema } from '../../wire/v1/request.ts';
import { scrapeOpenApi } from './scrape-openapi.ts';

async function scrape(scraper: Scraper, maxBody: number, { request, workspace }: RouteRequest): Promise<Response> {
  const body = await readJsonBody(request, v1ScrapeSchema(scraper.request), maxBody);
  const outcome = await scraper.scrape(body, workspace, request.signal, v1Field);
  return Response.json(presentResult(outcome.result), { headers: scrapeHeaders(outcome.cached, outcome.timings) });
}

export const scrapeModule = defineRoutes({
  name: 'scrape',
  needs: { scraper: CoreTokens.Scraper },
  routes: ({ scraper }, env) => [
    { method: 'POST', path: '/v1/scrape', body: 'manual', handle: (input) => scrape(scraper, env.config.server.maxBodyBytes, input) },
  ],
  openapi: ({ scraper }, env) => scrapeOpenApi(scraper.knownFormats(), v1ScrapeSchema(scraper.request), pluginContributions(env.registry)),
});
