/**
 * Collects map links in discovery order: one entry per URL (fragments dropped; trailing slash,
 * default port and query order do not make a new entry), only URLs in scope and matching the
 * search, at most `limit`. Later sightings of a URL fill in a missing title or lastmod.
 */
import { getDomain } from 'tldts';
import type { FoundLink } from './documents.ts';

const MAX_URL_CHARS = 2048;

/** The dedupe key: what makes two spellings of a URL the same page for a listing. */
export function linkKey(href: string): string {
  const url = new URL(href);
  url.hash = '';
  url.searchParams.sort();
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/**
 * Same site as any of `hosts` (the start URL's, and where it redirected): the same host, `www.`
 * ignored, or with `includeSubdomains` any host under the same registrable domain (private
 * suffixes such as github.io count as public ones, so two users' sites stay apart).
 */
export function siteScope(hosts: string[], includeSubdomains: boolean): (url: URL) => boolean {
  const exact = new Set(hosts.map(bareHost));
  const domainOf = (host: string) => getDomain(host, { allowPrivateDomains: true });
  const domains = new Set(hosts.map(domainOf).filter((d): d is string => d !== null));
  return (url) => {
    const host = url.hostname.toLowerCase();
    if (exact.has(bareHost(host))) return true;
    if (!includeSubdomains) return false;
    const domain = domainOf(host);
    return domain !== null && domains.has(domain);
  };
}

/** Every whitespace-separated term must occur in the decoded URL or the title, case-insensitively. */
export function searchFilter(search: string | undefined): (link: FoundLink) => boolean {
  const terms = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return () => true;
  return (link) => {
    let url = link.url;
    try { url = decodeURI(url); } catch {}
    const haystack = `${url} ${link.title ?? ''}`.toLowerCase();
    return terms.every((term) => haystack.includes(term));
  };
}

export class LinkCollector {
  readonly #links = new Map<string, FoundLink>();
  #inScope: (url: URL) => boolean = () => true;

  constructor(private readonly limit: number, private readonly matches: (link: FoundLink) => boolean) {}

  /** The scope is known only once the start page has answered (redirects move the host). */
  setScope(inScope: (url: URL) => boolean): void {
    this.#inScope = inScope;
  }

  get full(): boolean {
    return this.#links.size >= this.limit;
  }

  add(link: FoundLink): void {
    if (link.url.length > MAX_URL_CHARS) return;
    let key: string;
    try {
      key = linkKey(link.url);
    } catch {
      return;
    }
    const known = this.#links.get(key);
    if (known) {
      known.title ??= link.title;
      known.lastmod ??= link.lastmod;
      return;
    }
    if (this.full || !this.#inScope(new URL(link.url)) || !this.matches(link)) return;
    this.#links.set(key, { ...link });
  }

  links(): FoundLink[] {
    return [...this.#links.values()];
  }
}
