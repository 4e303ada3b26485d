/**
 * POST /v1/scrape: one URL in, the requested formats and metadata out. Timings go to the
 * `Server-Timing` header and cache hits are marked with `X-Trawl-Cache`.
 */
import type { Trawl } from '../../../core/container.ts';
import { readJsonBody } from '../../body.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentResult } from '../../wire/v1/present.ts';
import { v1ScrapeSchema } from '../../wire/v1/request.ts';

export async function scrapeRoute(trawl: Trawl, request: Request, workspace: string): Promise<Response> {
  const body = await readJsonBody(request, v1ScrapeSchema(trawl.scraper.request), trawl.config.server.maxBodyBytes);
  const outcome = await trawl.scraper.scrape(body, workspace, request.signal, v1Field);
  const timing = Object.entries(outcome.timings)
    .map(([stage, ms]) => `${stage.replace(/[^a-zA-Z0-9_-]/g, '_')};dur=${ms}`)
    .join(', ');
  const headers: Record<string, string> = { 'x-trawl-cache': outcome.cached ? 'hit' : 'miss' };
  if (timing) headers['server-timing'] = timing;
  return Response.json(presentResult(outcome.result), { headers });
}
