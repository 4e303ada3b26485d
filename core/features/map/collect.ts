/**
 * Collects map links in discovery order: one entry per page by the URL module's dedupe key
 * (core/net/url.ts: fragments dropped; trailing slash, default port, query order and escape case
 * do not make a new entry), listed without fragment, only URLs in scope (the site's hosts and,
 * with the path filter, paths below the start URL's: paths.ts) and matching the search, at most
 * `limit`. Later sightings of a URL fill in a missing title or lastmod.
 */
import { normalizeUrl } from '../../net/url.ts';
import type { FoundLink } from '../../net/feeds.ts';

/** Every whitespace-separated term must occur in the decoded URL or the title, case-insensitively. */
export function searchFilter(search: string | undefined): (link: FoundLink) => boolean {
  const terms = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return () => true;
  return (link) => {
    let url = link.url;
    try {
      url = decodeURI(url);
    } catch {}
    const haystack = `${url} ${link.title ?? ''}`.toLowerCase();
    return terms.every((term) => haystack.includes(term));
  };
}

export class LinkCollector {
  readonly #links = new Map<string, FoundLink>();
  #onSite: (host: string) => boolean = () => true;
  #underPath: (path: string) => boolean = () => true;
  #leftOutByPath = false;

  constructor(
    private readonly limit: number,
    private readonly matches: (link: FoundLink) => boolean,
  ) {}

  /**
   * The scope (a test of host names, core/net/scope.ts, and one of paths, paths.ts) is known only
   * once the start URL has answered: a redirect moves the host and the path.
   */
  setScope(onSite: (host: string) => boolean, underPath: (path: string) => boolean = () => true): void {
    this.#onSite = onSite;
    this.#underPath = underPath;
  }

  /** Whether the path test refused a link that was otherwise listed: the site has more than the answer shows. */
  get leftOutByPath(): boolean {
    return this.#leftOutByPath;
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
    if (this.full || !this.#onSite(url.host) || !this.matches(entry)) return;
    if (!this.#underPath(url.path)) {
      this.#leftOutByPath = true;
      return;
    }
    this.#links.set(url.key, entry);
  }

  links(): FoundLink[] {
    return [...this.#links.values()];
  }
}
