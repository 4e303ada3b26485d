/**
 * What every search provider plugin shares besides HTTP: its option fields (base URL, key,
 * timeout), the status `/health` shows (last error, last success, rate-limit pause), the pause
 * itself — after a 429 the provider is not asked until its Retry-After has passed, so the chain
 * goes straight to the next provider instead of waiting on one that will refuse — and paging for
 * providers that hand out results a page at a time.
 */
import { z } from 'zod';
import { endpointOf, normalizeUrl } from '../../../core/kit.ts';
import type { SearchAnswer, SearchHandler, SearchHit, SearchQuery, SearchStatus } from '../../../core/kit.ts';
import { providerError } from './http.ts';

export { joinUrl } from '../../../core/kit.ts';

/** A Retry-After of days (a monthly quota) still gets the provider asked again within the hour. */
const MAX_PAUSE_SECONDS = 3600;

export const providerOptions = {
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000).describe('Time limit of one request to the provider.'),
  apiKey: z.string().trim().min(1).optional().describe('The API key; setting it enables the provider.'),
  baseUrl: (official: string) =>
    z
      .url({ protocol: /^https?$/ })
      .default(official)
      .describe('Where requests go (a proxy, or a local test server).'),
};

/** The options of a provider with an API key: the key (which enables it), its base URL and time limit. */
export const keyedProviderOptions = (officialBaseUrl: string) =>
  z.strictObject({
    apiKey: providerOptions.apiKey,
    baseUrl: providerOptions.baseUrl(officialBaseUrl),
    timeoutMs: providerOptions.timeoutMs,
  });

const iso = (ms: number) => new Date(ms).toISOString();

/** Wraps a provider's search with its /health status and the pause after a rate limit. */
export function trackedProvider(endpoint: string, search: (query: SearchQuery) => Promise<SearchAnswer>): SearchHandler {
  const status: SearchStatus = { state: 'unused', endpoint: endpointOf(endpoint) };
  let pausedUntil = 0;
  return {
    async search(query) {
      const wait = pausedUntil - Date.now();
      if (wait > 0) throw providerError(`not asked: rate limited until ${iso(pausedUntil)}`, Math.ceil(wait / 1000));
      try {
        const answer = await search(query);
        Object.assign(status, { state: 'ok', lastSuccessAt: iso(Date.now()), retryAt: undefined });
        return answer;
      } catch (err) {
        // The caller went away: that says nothing about the provider.
        if (query.signal.aborted) throw err;
        const message = err instanceof Error ? err.message : String(err);
        const seconds = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
        pausedUntil = seconds ? Date.now() + Math.min(seconds, MAX_PAUSE_SECONDS) * 1000 : 0;
        Object.assign(status, {
          state: seconds ? 'rate_limited' : 'failing',
          lastError: { message, at: iso(Date.now()) },
          retryAt: seconds ? iso(pausedUntil) : undefined,
        });
        throw err;
      }
    },
    status: () => {
      // A pause that is over is over, whether or not a search has happened since.
      if (status.state === 'rate_limited' && Date.now() >= pausedUntil) return { ...status, state: 'failing', retryAt: undefined };
      return { ...status };
    },
  };
}

export type PageHit = Omit<SearchHit, 'position'>;

/**
 * Pages 0, 1, … until `limit` hits, a page with nothing new, `more` false, or `maxPages`. A
 * failing first page fails the search; a failing later page ends it with what was found and a
 * warning (a free plan's one-request-per-second limit usually hits the second page).
 */
export async function collectPages(
  limit: number,
  maxPages: number,
  page: (index: number) => Promise<{ hits: PageHit[]; more?: boolean }>,
): Promise<SearchAnswer> {
  const hits: PageHit[] = [];
  const seen = new Set<string>();
  const warnings: string[] = [];
  for (let index = 0; index < maxPages && hits.length < limit; index++) {
    let answer: { hits: PageHit[]; more?: boolean };
    try {
      answer = await page(index);
    } catch (err) {
      if (index === 0) throw err;
      warnings.push(`results page ${index + 1} failed, ${hits.length} results kept: ${(err as Error).message}`);
      break;
    }
    // One slot per page (the URL module's key), so duplicates across or within pages do not crowd out the limit.
    const fresh = answer.hits.filter((hit) => {
      const key = normalizeUrl(hit.url)?.key ?? hit.url;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    hits.push(...fresh);
    if (fresh.length === 0 || answer.more === false) break;
  }
  return { hits: ranked(hits.slice(0, limit)), ...(warnings.length ? { warnings } : {}) };
}

/** Positions 1…n in list order. */
export const ranked = (hits: readonly PageHit[]): SearchHit[] => hits.map((hit, index) => ({ ...hit, position: index + 1 }));
