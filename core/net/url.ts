/**
 * The one URL module: how Trawl parses a link, when two spellings name the same page, and what
 * a relative reference means on a page. Crawl, map, the links format, URL resolution and every
 * plugin that makes references absolute use these, so they agree on every rule.
 *
 * The dedupe key drops the fragment, the default port (WHATWG parsing already does), trailing
 * slashes on non-root paths and an empty query, sorts the query parameters and upper-cases
 * percent-escapes; the scheme, the host (`www.` included), the port and the path's case stay.
 * `www.example.com` and `example.com` are two hosts that may serve different pages, so they
 * keep two keys; scope.ts treats them as one site. The key is for comparing only: pages are
 * fetched at the URL as linked (without its fragment), because servers may treat `/a/` and `/a`
 * differently.
 */

/** Links longer than this are ignored: no real page needs one, and they bloat frontiers and listings. */
export const MAX_URL_LENGTH = 4096;

export const isHttpUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/** The URL as written up to its fragment: for telling a jump within a page from a link elsewhere. */
export const withoutHash = (url: string): string => url.replace(/#.*$/, '');

/** The URL for a log line or message: user name and password never leave in clear. */
export function loggableUrl(url: URL | string): string {
  let copy: URL;
  try {
    copy = new URL(typeof url === 'string' ? url : url.href);
  } catch {
    return String(url);
  }
  if (!copy.username && !copy.password) return copy.href;
  copy.username = copy.username ? 'redacted' : '';
  copy.password = copy.password ? 'redacted' : '';
  return copy.href;
}

/** Resolves `value` against `base` as a browser would, any scheme; null for empty or unparseable values. */
export function absoluteUrl(value: string | null | undefined, base: string): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

/** An absolute (or base-relative) http(s) URL without its fragment; null when too long, not http(s) or unparseable. */
export function parseHttpUrl(input: string | null | undefined, base?: string): URL | null {
  const trimmed = input?.trim();
  if (!trimmed || trimmed.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url;
}

/** `parseHttpUrl` as a string. */
export const httpUrl = (input: string | null | undefined, base?: string): string | null => parseHttpUrl(input, base)?.href ?? null;

/** What makes two spellings of a URL the same page (see the header for the rule). */
export function dedupeKey(url: URL | string): string {
  const copy = new URL(typeof url === 'string' ? url : url.href);
  copy.hash = '';
  copy.searchParams.sort();
  let path = copy.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  const raw = `${copy.protocol}//${copy.host}${path}${copy.search}`;
  return raw.replace(/%[0-9a-f]{2}/gi, (code) => code.toUpperCase());
}

export interface NormalUrl {
  /** What is fetched or listed: the link as found, without fragment. */
  url: string;
  /** The dedupe key. */
  key: string;
  /** Lower-cased host name, without port. */
  host: string;
  path: string;
}

/** Parses a link into its identity; null when unusable (see `parseHttpUrl`). */
export function normalizeUrl(input: string | null | undefined, base?: string): NormalUrl | null {
  const url = parseHttpUrl(input, base);
  return url && { url: url.href, key: dedupeKey(url), host: url.hostname, path: url.pathname };
}

/** The little of a DOM document `documentBaseUrl` reads, so core/net needs no DOM implementation. */
export interface BaseElementSource {
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
}

/**
 * The base relative URLs resolve against: the first `<base href>` (itself relative to the page
 * URL), as browsers do; a `javascript:`/`data:` base is ignored because it cannot anchor links.
 */
export function documentBaseUrl(dom: BaseElementSource | null | undefined, pageUrl: string): string {
  return baseUrlFrom(dom?.querySelector('base[href]')?.getAttribute('href'), pageUrl);
}

/** The same from the first `<base>`'s href, when the caller has found it already. */
export function baseUrlFrom(href: string | null | undefined, pageUrl: string): string {
  const declared = absoluteUrl(href, pageUrl);
  return declared && isHttpUrl(declared) ? declared : pageUrl;
}
