/**
 * The Brave Search API (web search): `GET <baseUrl>/res/v1/web/search?q&count&offset&country
 * &search_lang` with the key in `X-Subscription-Token` → `{type: "search", query:
 * {more_results_available}, web: {results: [{url, title, description}]}}` (no `web` when nothing
 * was found). Up to 20 results a page, pages by `offset`. Brave refuses a bad key with 422
 * SUBSCRIPTION_TOKEN_INVALID (not 401) and a rate or quota limit with 429 RATE_LIMITED /
 * QUOTA_LIMITED, saying when it resets in `X-RateLimit-Reset` (seconds per policy window, the
 * exhausted one being the window whose `X-RateLimit-Remaining` is 0). Enabled by setting `apiKey`.
 */
import { definePlugin, Tokens } from '../../../core/kit.ts';
import type { SearchQuery } from '../../../core/kit.ts';
import { callProvider, detail, errorJson, jsonOf, plainText, providerError, statusError } from '../shared/http.ts';
import { collectPages, joinUrl, keyedProviderOptions, trackedProvider } from '../shared/provider.ts';

const PER_PAGE = 20;
/** 50 results at most are asked for: three pages. */
const MAX_PAGES = 3;

interface BraveAnswer {
  type?: unknown;
  query?: { more_results_available?: unknown };
  web?: { results?: Array<{ url?: unknown; title?: unknown; description?: unknown }> };
}

/** Brave's language codes differ from ISO 639-1 for a few languages. */
function braveLanguage(language: string, country?: string): string {
  if (language === 'ja') return 'jp';
  if (language === 'no') return 'nb';
  if (language === 'zh') return ['tw', 'hk', 'mo'].includes(country ?? '') ? 'zh-hant' : 'zh-hans';
  if (language === 'pt') return country === 'br' ? 'pt-br' : 'pt-pt';
  if (language === 'en' && country === 'gb') return 'en-gb';
  return language;
}

/** Seconds until the exhausted window resets (`X-RateLimit-Remaining: 0, 1000` + `X-RateLimit-Reset: 1, 1419704` → 1). */
export function braveResetSeconds(headers: Record<string, string>): number | undefined {
  const list = (name: string) => (headers[name] ?? '').split(',').map((v) => Number(v.trim()));
  const remaining = list('x-ratelimit-remaining');
  const reset = list('x-ratelimit-reset');
  const index = remaining.indexOf(0);
  const seconds = reset[index === -1 ? 0 : index];
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

/** `{error: {code, detail}}` (the documented model; some answers carry `errors: [...]`) as "CODE: detail". */
function braveError(body: Record<string, unknown> | null): { code: string; text: string } {
  const error = (body?.error ?? (Array.isArray(body?.errors) ? body.errors[0] : undefined)) as
    | { code?: unknown; detail?: unknown }
    | undefined;
  const code = detail(error?.code);
  return { code, text: [code, detail(error?.detail)].filter(Boolean).join(': ') };
}

export const braveSearch = definePlugin({
  kind: 'search',
  name: 'brave',
  description: 'Brave Search API (web results); enabled by setting `apiKey`.',
  enabledBy: ['apiKey'],
  options: keyedProviderOptions('https://api.search.brave.com'),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const endpoint = joinUrl(options.baseUrl, '/res/v1/web/search');

    const page = async (query: SearchQuery, offset: number) => {
      const params = new URLSearchParams({ q: query.query, count: String(Math.min(query.limit, PER_PAGE)), offset: String(offset) });
      if (query.country) params.set('country', query.country.toUpperCase());
      if (query.language) params.set('search_lang', braveLanguage(query.language, query.country));
      // The registry enables this plugin only with `apiKey` set.
      const response = await callProvider(http, `${endpoint}?${params}`, {
        headers: { 'x-subscription-token': options.apiKey! },
        timeoutMs: options.timeoutMs,
        signal: query.signal,
      });
      if (response.status >= 400) {
        const { code, text } = braveError(errorJson(response));
        if (code.startsWith('SUBSCRIPTION_TOKEN')) throw providerError(`the API key was rejected (HTTP ${response.status}: ${text})`);
        throw statusError(response, text, { keyed: true, wait: response.status === 429 ? braveResetSeconds(response.headers) : undefined });
      }
      const answer = jsonOf(response) as BraveAnswer;
      if (!answer || typeof answer !== 'object' || (answer.web === undefined && answer.type !== 'search'))
        throw providerError('answered JSON that is not a web search result');
      const results = answer.web?.results ?? [];
      if (!Array.isArray(results)) throw providerError('answered JSON without a `web.results` list');
      return {
        hits: results.map((r) => ({
          url: typeof r.url === 'string' ? r.url : '',
          title: plainText(r.title, 500),
          description: plainText(r.description),
        })),
        more: answer.query?.more_results_available !== false,
      };
    };

    return trackedProvider(endpoint, (query) => collectPages(query.limit, MAX_PAGES, (index) => page(query, index)));
  },
});
