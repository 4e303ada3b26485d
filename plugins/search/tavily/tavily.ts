/**
 * Tavily: `POST <baseUrl>/search` with `Authorization: Bearer <key>` (the current API; the key no
 * longer goes in the body) and `{query, max_results, search_depth: "basic", topic: "general",
 * country}` → `{results: [{url, title, content, score}], …}`. `max_results` is at most 20 and
 * `country` is a lower-case English country name (`united kingdom`), taken from ICU's region names.
 * Tavily has no language filter: a `lang` is reported as ignored. Errors are `{detail: {error}}`:
 * 401 bad key, 429 too many requests, 432/433 plan or pay-as-you-go limit. Enabled by `apiKey`.
 */
import { definePlugin, Tokens } from '../../../core/kit.ts';
import { callProvider, detail, errorJson, jsonOf, plainText, providerError, statusError } from '../shared/http.ts';
import { joinUrl, keyedProviderOptions, ranked, trackedProvider } from '../shared/provider.ts';

const MAX_RESULTS = 20;
const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

interface TavilyAnswer {
  results?: Array<{ url?: unknown; title?: unknown; content?: unknown }>;
}

export const tavilySearch = definePlugin({
  kind: 'search',
  name: 'tavily',
  description: 'Tavily search API; enabled by setting `apiKey`.',
  enabledBy: ['apiKey'],
  options: keyedProviderOptions('https://api.tavily.com'),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const endpoint = joinUrl(options.baseUrl, '/search');
    return trackedProvider(endpoint, async (query) => {
      const body: Record<string, unknown> = {
        query: query.query,
        max_results: Math.min(query.limit, MAX_RESULTS),
        search_depth: 'basic',
        topic: 'general',
      };
      if (query.country) body.country = countryNames.of(query.country.toUpperCase())?.toLowerCase();
      // The registry enables this plugin only with `apiKey` set.
      const response = await callProvider(http, endpoint, {
        json: body,
        headers: { authorization: `Bearer ${options.apiKey!}` },
        timeoutMs: options.timeoutMs,
        signal: query.signal,
      });
      if (response.status >= 400) {
        const said = errorJson(response)?.detail as { error?: unknown } | string | undefined;
        const text = detail(typeof said === 'string' ? said : said?.error);
        if (response.status === 432 || response.status === 433)
          throw providerError(`the plan's usage limit is reached (HTTP ${response.status}${text ? `: ${text}` : ''})`);
        throw statusError(response, text, { keyed: true });
      }
      const answer = jsonOf(response) as TavilyAnswer;
      if (!answer || !Array.isArray(answer.results)) throw providerError('answered JSON without a `results` list');
      const hits = ranked(
        answer.results.map((r) => ({
          url: typeof r.url === 'string' ? r.url : '',
          title: plainText(r.title, 500),
          description: plainText(r.content),
        })),
      );
      return query.language ? { hits, warnings: ['lang is not supported by Tavily; ignored'] } : { hits };
    });
  },
});
