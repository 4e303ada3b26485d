/**
 * Serper's Google search API as documented (serper.dev playground and examples): `POST /search`
 * with `X-API-KEY` and a JSON body `{q, gl, hl, num, page}` (`Content-Type: application/json`).
 * Answers `{searchParameters: {q, gl, hl, type: "search", num, page, engine: "google"}, organic:
 * [{title, link, snippet, position, date?}], relatedSearches, credits}` (no `organic` when nothing
 * was found). An unknown key is 403 `{message: "Unauthorized.", statusCode: 403}`; a spent balance
 * 400 "Not enough credits" (`serperNoCredits`); too many requests 429 (`serperTooMany`).
 */
import { json, pageOf, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export const SERPER_TEST_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';

const serperError = (status: number, message: string, headers: Record<string, string> = {}) =>
  json({ message, statusCode: status }, status, headers);
export const serperNoCredits = () => serperError(400, 'Not enough credits');
export const serperTooMany = (retryAfter?: number) => () =>
  serperError(429, 'Too many requests', retryAfter ? { 'retry-after': String(retryAfter) } : {});

export function startSerperServer(options: ProviderServerOptions = {}): ProviderServer {
  return startProviderServer(options, (req, self) => {
    if (req.method !== 'POST' || req.path !== '/search') return serperError(404, 'Not found');
    if (req.headers['x-api-key'] !== SERPER_TEST_KEY) return serperError(403, 'Unauthorized.');
    if (!req.headers['content-type']?.startsWith('application/json')) return serperError(400, 'Invalid request');
    let body: { q?: unknown; num?: unknown; page?: unknown; gl?: unknown; hl?: unknown };
    try {
      body = JSON.parse(req.body);
    } catch {
      return serperError(400, 'Invalid JSON');
    }
    const num = body.num ?? 10;
    const page = body.page ?? 1;
    if (
      typeof body.q !== 'string' ||
      !body.q.trim() ||
      typeof num !== 'number' ||
      num < 1 ||
      num > 100 ||
      typeof page !== 'number' ||
      page < 1
    )
      return serperError(400, 'Query param `q`, `num` or `page` is invalid');
    const organic = pageOf(self.results(body.q), page - 1, num).map((r, i) => ({
      title: r.title,
      link: r.url,
      snippet: r.snippet,
      position: (page - 1) * num + i + 1,
    }));
    const answer: Record<string, unknown> = {
      searchParameters: {
        q: body.q,
        ...(body.gl ? { gl: body.gl } : {}),
        ...(body.hl ? { hl: body.hl } : {}),
        type: 'search',
        num,
        page,
        engine: 'google',
      },
      relatedSearches: [],
      credits: 1,
    };
    if (organic.length) answer.organic = organic;
    return json(answer);
  });
}
