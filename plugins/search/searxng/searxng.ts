/**
 * SearXNG, the self-hosted metasearch engine, through its JSON API:
 * `GET <url>/search?q=…&format=json&pageno=N[&language=xx(-YY)]` → `{results: [{url, title,
 * content}], unresponsive_engines: [[engine, reason]], …}`. Enabled by setting `url`. Two ways it
 * "succeeds" without results are reported as errors instead: a 403 (the instance has the `json`
 * format switched off, its default) and an empty list while its engines failed (each one named,
 * with SearXNG's reason: a CAPTCHA, a timeout, a suspension).
 */
import { z } from 'zod';
import { definePlugin, Tokens } from '../../../core/kit.ts';
import type { SearchQuery } from '../../../core/kit.ts';
import { callProvider, detail, jsonOf, plainText, providerError, statusError } from '../shared/http.ts';
import { collectPages, joinUrl, providerOptions, trackedProvider, type PageHit } from '../shared/provider.ts';

/** SearXNG pages hold 10–30 results; a few pages cover any `num_results`. */
const MAX_PAGES = 5;

interface SearxngAnswer {
  results?: Array<{ url?: unknown; title?: unknown; content?: unknown }>;
  unresponsive_engines?: unknown[];
}

/** SearXNG takes one locale: a language, optionally with a region (`de-CH`); a region alone it cannot use. */
function locale(query: SearchQuery): { language?: string; warning?: string } {
  if (query.language) return { language: query.country ? `${query.language}-${query.country.toUpperCase()}` : query.language };
  return query.country ? { warning: 'country is applied only together with lang (SearXNG takes a locale such as de-CH); ignored' } : {};
}

/** `[["google", "CAPTCHA"], …]` as "google (CAPTCHA), …". */
function failedEngines(list: unknown[] | undefined): string {
  return (list ?? [])
    .map((entry) => (Array.isArray(entry) ? `${detail(entry[0])}${entry[1] ? ` (${detail(entry[1])})` : ''}` : detail(entry)))
    .filter(Boolean)
    .join(', ');
}

export const searxngSearch = definePlugin({
  kind: 'search',
  name: 'searxng',
  description: 'SearXNG (self-hosted metasearch) through its JSON API; enabled by setting `url`.',
  enabledBy: ['url'],
  options: z.strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        'Base URL of the SearXNG instance (e.g. http://localhost:8888); setting it enables the provider. Its settings.yml must list `json` under search.formats.',
      ),
    timeoutMs: providerOptions.timeoutMs,
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    // The registry enables this plugin only with `url` set.
    const endpoint = joinUrl(options.url!, '/search');

    const page = async (query: SearchQuery, pageno: number, language?: string): Promise<{ hits: PageHit[] }> => {
      const params = new URLSearchParams({ q: query.query, format: 'json', pageno: String(pageno) });
      if (language) params.set('language', language);
      const response = await callProvider(http, `${endpoint}?${params}`, { timeoutMs: options.timeoutMs, signal: query.signal });
      if (response.status === 403) {
        throw providerError('the instance refuses JSON output (HTTP 403): add `json` to search.formats in its settings.yml');
      }
      if (response.status >= 400) throw statusError(response, '');
      const answer = jsonOf(response) as SearxngAnswer;
      if (!answer || !Array.isArray(answer.results)) throw providerError('answered JSON without a `results` list');
      const hits = answer.results.map((r) => ({
        url: typeof r.url === 'string' ? r.url : '',
        title: plainText(r.title, 500),
        description: plainText(r.content),
      }));
      const failed = failedEngines(answer.unresponsive_engines);
      // Nothing found because its engines failed is not "nothing found".
      if (hits.length === 0 && failed && pageno === 1) throw providerError(`no results because its engines failed: ${failed}`);
      return { hits };
    };

    return trackedProvider(endpoint, async (query) => {
      const { language, warning } = locale(query);
      const answer = await collectPages(query.limit, MAX_PAGES, (index) => page(query, index + 1, language));
      return warning ? { ...answer, warnings: [warning, ...(answer.warnings ?? [])] } : answer;
    });
  },
});
