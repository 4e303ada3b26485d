/**
 * The Brave Search API's web search as documented (api-dashboard.search.brave.com, web search
 * GET; request and response headers): `GET /res/v1/web/search` with `X-Subscription-Token`; `q`
 * (required, at most 400 characters and 50 words), `count` (1–20, default 20), `offset` (0–9,
 * in pages of `count`), `country` (two letters), `search_lang`. Answers `{type: "search", query:
 * {original, more_results_available}, web: {type: "search", results: [{type: "search_result",
 * title, url, description, …}]}}`, without `web` when nothing was found; every answer carries the
 * X-RateLimit-* headers. Errors are `{type: "ErrorResponse", error: {id, status, code, detail,
 * meta}, time}`: a missing or unknown key is 422 SUBSCRIPTION_TOKEN_INVALID, a bad parameter 422
 * VALIDATION, a rate limit 429 RATE_LIMITED (`braveRateLimited`), a spent quota 429 QUOTA_LIMITED.
 */
import { json, pageOf, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export const BRAVE_TEST_KEY = 'BSA-test-key-0123456789';

const braveError = (status: number, code: string, text: string, component: string, headers: Record<string, string> = {}) =>
  json(
    {
      type: 'ErrorResponse',
      error: { id: crypto.randomUUID(), status, code, detail: text, meta: { component } },
      time: Math.floor(Date.now() / 1000),
    },
    status,
    headers,
  );

const rateHeaders = (remaining: string, reset: string) => ({
  'x-ratelimit-limit': '1, 15000',
  'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
  'x-ratelimit-remaining': remaining,
  'x-ratelimit-reset': reset,
});

/** 429 for the per-second window: `X-RateLimit-Reset` says when it reopens. */
export const braveRateLimited =
  (resetSeconds = 1) =>
  () =>
    braveError(
      429,
      'RATE_LIMITED',
      'Request rate limit exceeded for plan.',
      'rate_limiter',
      rateHeaders('0, 14000', `${resetSeconds}, 1419704`),
    );

export const braveQuotaLimited = () => () =>
  braveError(429, 'QUOTA_LIMITED', 'Request quota limit exceeded for plan.', 'rate_limiter', rateHeaders('1, 0', '1, 1419704'));

export function startBraveServer(options: ProviderServerOptions = {}): ProviderServer {
  return startProviderServer(options, (req, self) => {
    if (req.method !== 'GET' || req.path !== '/res/v1/web/search')
      return braveError(404, 'RESOURCE_NOT_FOUND', 'Resource not found.', 'routing');
    if (req.headers['x-subscription-token'] !== BRAVE_TEST_KEY)
      return braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', 'authentication');
    const q = req.query.get('q') ?? '';
    const count = Number(req.query.get('count') ?? '20');
    const offset = Number(req.query.get('offset') ?? '0');
    const country = req.query.get('country');
    const invalid =
      !q.trim() || q.length > 400 || q.trim().split(/\s+/).length > 50
        ? 'q'
        : !Number.isInteger(count) || count < 1 || count > 20
          ? 'count'
          : !Number.isInteger(offset) || offset < 0 || offset > 9
            ? 'offset'
            : country !== null && !/^[A-Z]{2}$|^ALL$/.test(country)
              ? 'country'
              : null;
    if (invalid) return braveError(422, 'VALIDATION', `Unable to validate request parameter(s): ${invalid}`, 'validation');
    const all = self.results(q);
    const results = pageOf(all, offset, count).map((r) => ({
      type: 'search_result',
      title: r.title,
      url: r.url,
      description: r.snippet,
      is_source_local: false,
      is_source_both: false,
      language: 'en',
      family_friendly: true,
    }));
    const body: Record<string, unknown> = {
      type: 'search',
      query: {
        original: q,
        show_strict_warning: false,
        is_navigational: false,
        spellcheck_off: true,
        country: (country ?? 'US').toLowerCase(),
        more_results_available: all.length > (offset + 1) * count,
      },
      mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
    };
    if (results.length) body.web = { type: 'search', results, family_friendly: true };
    return json(body, 200, rateHeaders('0, 14000', '1, 1419704'));
  });
}
