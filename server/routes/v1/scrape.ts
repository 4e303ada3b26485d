/**
 * POST /v1/scrape: one URL in, the requested formats and metadata out. Timings go to the
 * `Server-Timing` header and cache hits are marked with `X-Trawl-Cache`.
 */
import type { Trawl } from '../../../core/container.ts';
import { scrapeRequestSchema } from '../../../core/job.ts';
import { readJsonBody } from '../../body.ts';

export async function scrapeRoute(trawl: Trawl, request: Request, workspace: string): Promise<Response> {
  const body = await readJsonBody(request, scrapeRequestSchema, trawl.config.server.maxBodyBytes);
  const outcome = await trawl.scraper.scrape(body, workspace, request.signal);
  const timing = Object.entries(outcome.timings)
    .map(([stage, ms]) => `${stage.replace(/[^a-zA-Z0-9_-]/g, '_')};dur=${ms}`)
    .join(', ');
  const headers: Record<string, string> = { 'x-trawl-cache': outcome.cached ? 'hit' : 'miss' };
  if (timing) headers['server-timing'] = timing;
  return Response.json(outcome.result, { headers });
}
