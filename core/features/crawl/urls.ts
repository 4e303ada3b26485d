/**
 * URL identity for crawls: two links that name the same page must dedupe to one frontier row.
 * The key drops the fragment, the default port (WHATWG URL parsing already does), a trailing
 * slash on non-root paths and an empty query, sorts query parameters and upper-cases
 * percent-escapes. The key is only for comparing: pages are fetched at the URL as linked (without
 * its fragment), because servers may treat `/a/` and `/a` differently.
 */
import { sha256Hex } from '../../storage/values.ts';

export interface CrawlUrl {
  /** What is fetched: the link as found, without fragment. */
  url: string;
  /** The normalised form used for dedupe. */
  key: string;
  /** sha256 of the key: the frontier row id (URLs have no length limit; index entries do). */
  hash: string;
  host: string;
  path: string;
}

/** Links longer than this are ignored: no real page needs one, and they bloat the frontier. */
export const MAX_URL_LENGTH = 4096;

export function normalizeKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  copy.searchParams.sort();
  let path = copy.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  const query = copy.search === '?' ? '' : copy.search;
  const raw = `${copy.protocol}//${copy.host}${path}${query}`;
  return raw.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/** Parses an absolute (or base-relative) http(s) URL into its crawl identity; null when unusable. */
export function crawlUrl(input: string, base?: string): CrawlUrl | null {
  if (input.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  const key = normalizeKey(url);
  return { url: url.href, key, hash: sha256Hex(key), host: url.hostname, path: url.pathname };
}
