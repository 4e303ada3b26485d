/**
 * DuckDuckGo's keyless HTML endpoint, opt-in and best effort: `POST <baseUrl>/html/` with the
 * form fields `q` and `kl` (region-language, `de-de`, `uk-en`, `wt-wt` for none), read from the
 * page's `.result` blocks (`a.result__a`, whose href is usually a `//duckduckgo.com/l/?uddg=<target>`
 * redirect, and `.result__snippet`), ads (`.result--ad`, `y.js` links) left out. DuckDuckGo
 * answers data-centre addresses with a bot check (HTTP 202, `anomaly-modal`, a `challenge-form`
 * posting to anomaly.js) instead of results: that is reported as an error, never as zero results,
 * and so is a page with neither results nor DuckDuckGo's "no results" notice. First page only.
 */
import { z } from 'zod';
import { definePlugin, parseHtmlDocument, responseText, Tokens } from '../../../core/kit.ts';
import type { DomElement, SearchQuery } from '../../../core/kit.ts';
import { callProvider, plainText, providerError, statusError } from '../shared/http.ts';
import { joinUrl, providerOptions, ranked, trackedProvider, type PageHit } from '../shared/provider.ts';

const BOT_CHECK = /anomaly-modal|id=["']?challenge-form|anomaly\.js|bots use DuckDuckGo too/i;
/** Countries whose DuckDuckGo region speaks English when no language is given. */
const ENGLISH = new Set(['us', 'gb', 'au', 'ca', 'ie', 'nz', 'in', 'za', 'sg', 'ph']);

/** DuckDuckGo's `kl`: its region codes are country-language pairs, with `uk` for Great Britain. */
export function duckRegion(query: Pick<SearchQuery, 'country' | 'language'>): { kl: string; warning?: string } {
  if (!query.country)
    return {
      kl: 'wt-wt',
      ...(query.language ? { warning: 'lang is applied only together with country (DuckDuckGo regions pair them); ignored' } : {}),
    };
  const region = query.country === 'gb' ? 'uk' : query.country;
  return { kl: `${region}-${query.language ?? (ENGLISH.has(query.country) ? 'en' : query.country)}` };
}

/** The result's target: the `uddg` parameter of DuckDuckGo's redirect, else the link itself; null for ads. */
export function targetOf(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href, 'https://duckduckgo.com/');
  } catch {
    return null;
  }
  if (!/(^|\.)duckduckgo\.com$/.test(url.hostname)) return url.href;
  if (url.pathname === '/l/' && url.searchParams.get('uddg')) return url.searchParams.get('uddg');
  return null;
}

function readResults(html: string): { hits: PageHit[]; noResults: boolean } {
  const doc = parseHtmlDocument(html);
  const hits: PageHit[] = [];
  for (const block of doc.querySelectorAll('.result') as unknown as Iterable<DomElement>) {
    if (block.classList.contains('result--ad')) continue;
    const link = block.querySelector('a.result__a');
    const url = link ? targetOf(link.getAttribute('href') ?? '') : null;
    if (!link || !url) continue;
    hits.push({
      url,
      title: plainText(link.textContent, 500),
      description: plainText(block.querySelector('.result__snippet')?.textContent ?? ''),
    });
  }
  return { hits, noResults: doc.querySelector('.no-results') !== null };
}

export const duckduckgoSearch = definePlugin({
  kind: 'search',
  name: 'duckduckgo',
  description: "DuckDuckGo's keyless HTML results, best effort (often a bot check from data-centre addresses); opt-in.",
  enabledByDefault: false,
  options: z.strictObject({
    baseUrl: providerOptions.baseUrl('https://html.duckduckgo.com'),
    timeoutMs: providerOptions.timeoutMs,
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const endpoint = joinUrl(options.baseUrl, '/html/');
    return trackedProvider(endpoint, async (query) => {
      const { kl, warning } = duckRegion(query);
      const response = await callProvider(http, endpoint, {
        form: { q: query.query, kl },
        headers: { accept: 'text/html' },
        timeoutMs: options.timeoutMs,
        signal: query.signal,
      });
      const html = responseText(response);
      if (response.status === 202 || BOT_CHECK.test(html)) {
        throw providerError(
          `answered with its bot check (CAPTCHA, HTTP ${response.status}) instead of results, as it does for data-centre addresses: use SearXNG or a keyed provider`,
        );
      }
      if (response.status >= 400) throw statusError(response, '');
      const { hits, noResults } = readResults(html);
      if (hits.length === 0 && !noResults)
        throw providerError('the page holds neither results nor a "no results" notice (its layout may have changed)');
      const found = ranked(hits.slice(0, query.limit));
      return warning ? { hits: found, warnings: [warning] } : { hits: found };
    });
  },
});
