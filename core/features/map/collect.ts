/**
 * Collects map links in discovery order: one entry per page by the URL module's dedupe key
 * (core/net/url.ts: fragments dropped; trailing slash, default port, query order and escape case
 * do not make a new entry), listed without fragment, only URLs in scope and matching the search,
 * at most `limit`. Later sightings of a URL fill in a missing title or lastmod.
 */
import { normalizeUrl } from '../../net/url.ts';
import type { FoundLink } from './documents.ts';

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
  #inScope: (host: string) => boolean = () => true;

  constructor(private readonly limit: number, private readonly matches: (link: FoundLink) => boolean) {}

  /** The scope (a test of host names, core/net/scope.ts) is known only once the start page has answered: redirects move the host. */
  setScope(inScope: (host: string) => boolean): void {
    this.#inScope = inScope;
  }

  get full(): boolean {
    return this.#links.size >= this.limit;
  }

  add(link: FoundLink): void {
    const url = normalizeUrl(link.url);
    if (!url) return;
    const known = this.#links.get(url.key);
    if (known) {
      known.title ??= link.title;
      known.lastmod ??= link.lastmod;
      return;
    }
    const entry = { ...link, url: url.url };
    if (this.full || !this.#inScope(url.host) || !this.matches(entry)) return;
    this.#links.set(url.key, entry);
  }

  links(): FoundLink[] {
    return [...this.#links.values()];
  }
}
