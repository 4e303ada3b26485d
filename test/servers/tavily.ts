/**
 * Tavily's search endpoint as documented (docs.tavily.com, API reference: search; help center:
 * HTTP errors): `POST /search` with `Authorization: Bearer tvly-…` and a JSON body `{query,
 * max_results (0–20, default 5), search_depth, topic, country, …}`; `country` is a lower-case
 * country name and only allowed with topic "general". Answers `{query, answer, images, results:
 * [{title, url, content, score, raw_content}], response_time, request_id}`. Errors carry
 * `{detail: {error}}`: 401 missing or invalid key, 400 bad parameters, 429 too many requests
 * (`tavilyTooMany`, with Retry-After), 432 plan limit (`tavilyPlanLimit`).
 */
import { json, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export const TAVILY_TEST_KEY = 'tvly-test-0123456789abcdef';

const tavilyError = (status: number, error: string, headers: Record<string, string> = {}) => json({ detail: { error } }, status, headers);
export const tavilyTooMany =
  (retryAfter = 20) =>
  () =>
    tavilyError(429, 'Your request has been blocked due to excessive requests. Please reduce rate of requests.', {
      'retry-after': String(retryAfter),
    });
export const tavilyPlanLimit = () =>
  tavilyError(432, "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com");

/** The few country names the tests use, as Tavily lists them. */
const COUNTRIES = new Set(['united states', 'united kingdom', 'germany', 'france', 'switzerland']);

export function startTavilyServer(options: ProviderServerOptions = {}): ProviderServer {
  return startProviderServer(options, (req, self) => {
    if (req.method !== 'POST' || req.path !== '/search') return tavilyError(404, 'Not Found');
    if (req.headers.authorization !== `Bearer ${TAVILY_TEST_KEY}`) return tavilyError(401, 'Unauthorized: missing or invalid API key.');
    let body: { query?: unknown; max_results?: unknown; topic?: unknown; country?: unknown; search_depth?: unknown };
    try {
      body = JSON.parse(req.body);
    } catch {
      return tavilyError(400, 'Invalid JSON body');
    }
    const max = body.max_results ?? 5;
    if (typeof body.query !== 'string' || !body.query.trim()) return tavilyError(400, 'Query is missing.');
    if (typeof max !== 'number' || max < 0 || max > 20) return tavilyError(400, 'max_results must be between 0 and 20.');
    if (body.search_depth !== undefined && !['basic', 'advanced'].includes(String(body.search_depth)))
      return tavilyError(400, 'Invalid search depth.');
    if (body.country !== undefined && (body.topic ?? 'general') !== 'general')
      return tavilyError(400, 'Country is only supported with the general topic.');
    if (body.country !== undefined && !COUNTRIES.has(String(body.country)))
      return tavilyError(400, `Invalid country: ${String(body.country)}`);
    const results = self
      .results(body.query)
      .slice(0, max)
      .map((r, i) => ({ title: r.title, url: r.url, content: r.snippet, score: 0.9 - i / 100, raw_content: null }));
    return json({
      query: body.query,
      follow_up_questions: null,
      answer: null,
      images: [],
      results,
      response_time: 0.42,
      request_id: crypto.randomUUID(),
    });
  });
}
