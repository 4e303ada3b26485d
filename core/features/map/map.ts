/**
 * Map: a site's URLs without scraping its pages. Two kinds of source, chosen by `sitemap`:
 *
 * - the page side: the start page, read through the pipeline (start.ts), its links and the
 *   RSS/Atom feeds it announces (a feed is the page's own list of recent pages, not a sitemap);
 * - the sitemap side: sitemaps named by robots.txt `Sitemap:` lines (the shared robots.txt cache,
 *   core/net/robots.ts) and `/sitemap.xml`, indexes followed (sitemaps.ts), and the start URL
 *   itself when it is a sitemap.
 *
 * `include` (the default) reads both, `skip` the page side only (no robots.txt, no sitemap is
 * fetched), `only` the sitemap side plus the start URL, which is then fetched once as a document
 * rather than scraped: that is all it needs for where it redirects and whether it is a sitemap.
 * Links are listed in this order: the start URL, sitemap entries, feed entries, the page's links.
 * The path filter (paths.ts) keeps URLs below the start URL's path unless the start URL is itself
 * a sitemap, whose location says nothing about the pages it lists.
 *
 * Every fetch goes through the core HttpClient (SSRF guard, timeouts, body cap); the number of
 * sitemap documents, their nesting, their size and the whole request's time are bounded, and what
 * was skipped is reported in `warnings` instead of failing the request.
 */
import { z } from 'zod';
import type { MapSettings } from './config.ts';
import { TrawlError } from '../../errors.ts';
import { httpUrl, proxyRoute } from '../../model/request.ts';
import type { RobotsCache } from '../../net/robots.ts';
import { scopeMode, siteScope } from '../../net/scope.ts';
import type { Scraper } from '../../scrape.ts';
import type { HttpClient } from '../../services.ts';
import { LinkCollector, searchFilter } from './collect.ts';
import type { FoundLink } from '../../net/feeds.ts';
import { basePath, pathBase, pathFilter } from './paths.ts';
import { SitemapReader, type ReadOutcome } from './sitemaps.ts';
import { readStartPage, type StartPage } from './start.ts';

export const MAP_DEFAULT_LIMIT = 5000;
export const MAP_MAX_LIMIT = 100_000;
export const MAP_SITEMAP_MODES = ['include', 'only', 'skip'] as const;
export type MapSitemapMode = (typeof MAP_SITEMAP_MODES)[number];

/** `sitemap` as both wire formats take it. */
export const mapSitemapMode = z.enum(MAP_SITEMAP_MODES, { error: 'must be "include", "only" or "skip"' });

export const mapRequestSchema = z.strictObject({
  url: httpUrl,
  search: z.string().trim().max(500).optional().describe('Keeps links whose URL or title contains every word of it (case-insensitive).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAP_MAX_LIMIT)
    .default(MAP_DEFAULT_LIMIT)
    .describe(`Most links returned; default ${MAP_DEFAULT_LIMIT}, at most ${MAP_MAX_LIMIT}.`),
  include_subdomains: z
    .boolean()
    .default(false)
    .describe('Also list URLs on other hosts of the same registrable domain (blog.example.com for example.com).'),
  sitemap: mapSitemapMode
    .default('include')
    .describe(
      "`include`: the start page, its links and feeds, and the site's sitemaps; `skip`: no robots.txt or sitemap is fetched (the start page, its links and feeds); " +
        "`only`: the sitemaps' URLs and the start URL, which is fetched but not scraped (no title).",
    ),
  filter_by_path: z
    .boolean()
    .default(true)
    .describe(
      "Only URLs at or below the start URL's path, by whole segments: `/docs` or `/docs/` keeps `/docs/…`, not `/docsearch`; a file (`/docs/index.html`) stands for its " +
        'directory. The start URL is always listed; a start URL that is a sitemap is not filtered. False lists the whole site.',
    ),
  proxy: proxyRoute
    .optional()
    .describe(
      'How the start page, robots.txt and sitemaps are fetched: "none", a pool of `[fetch.proxies]` or "auto", as on a scrape; unset: the default route.',
    ),
});

export type MapRequest = z.output<typeof mapRequestSchema>;
/** The mapper's input: another feature (a crawl seeding its frontier) may leave the options out: every source, no path filter. */
export type MapQuery = Omit<MapRequest, 'sitemap' | 'filter_by_path'> & Partial<Pick<MapRequest, 'sitemap' | 'filter_by_path'>>;

export interface MapResult {
  links: FoundLink[];
  warnings?: string[];
}

const MAX_WARNINGS = 20;

export interface MapperDeps {
  http: HttpClient;
  /** Reads the start page through the pipeline. */
  scraper: Scraper;
  settings: Readonly<MapSettings>;
  /** The process's robots.txt cache (shared with crawls), for its Sitemap lines. */
  robots: RobotsCache;
}

/** The value of `promise`, or `fallback` once `signal` aborts (a shared fetch cannot be aborted by one of its callers). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, fallback: T): Promise<T> {
  if (signal.aborted) return Promise.resolve(fallback);
  return Promise.race([promise, new Promise<T>((resolve) => signal.addEventListener('abort', () => resolve(fallback), { once: true }))]);
}

/** How the start URL was read: as a page (scraped), as a document (fetched), or not at all. */
interface StartRead {
  page: StartPage | null;
  /** Set when the start URL was fetched as a document: `sitemap: only`, or a start URL no document plugin reads. */
  doc: ReadOutcome | null;
  /** Why it could not be read as a page (or, fetched, at all): answered when nothing was found and no document was read. */
  error: unknown;
}

const isSitemap = (doc: ReadOutcome | null) => Boolean(doc?.ok && doc.doc && doc.doc.kind !== 'unknown');

export function createMapper({ http, scraper, settings: limits, robots }: MapperDeps) {
  return async function map(query: MapQuery, workspace: string, signal?: AbortSignal): Promise<MapResult> {
    const mode = query.sitemap ?? 'include';
    const readsPage = mode !== 'only';
    const readsSitemaps = mode !== 'skip';
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const abort = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const warnings: string[] = [];
    const warn = (message: string) => {
      if (warnings.length < MAX_WARNINGS) warnings.push(message);
    };
    const collector = new LinkCollector(query.limit, searchFilter(query.search));
    const { proxy } = query;
    const sitemaps = new SitemapReader({
      http,
      limits,
      signal: abort,
      warn,
      add: (link) => collector.add(link),
      full: () => collector.full,
      ...(proxy ? { proxy } : {}),
    });
    const robotsSitemaps = (origin: string): Promise<readonly string[]> =>
      readsSitemaps
        ? untilAborted(
            robots.rulesFor(origin, proxy).then((rules) => rules.sitemaps),
            abort,
            [],
          )
        : Promise.resolve([]);

    // The site: the start URL's host and where it led; with the path filter, the directories of both.
    const start = new URL(query.url);
    const hosts = new Set([start.hostname]);
    const bases = new Map<string, string[]>();
    const scopeOf = scopeMode({ subdomains: query.include_subdomains });
    const reached = (url: URL, filtered: boolean) => {
      hosts.add(url.hostname);
      if (filtered && query.filter_by_path) {
        const base = pathBase(url.pathname);
        bases.set(basePath(base), base);
      }
      collector.setScope(siteScope([...hosts], scopeOf), bases.size ? pathFilter([...bases.values()]) : undefined);
    };

    async function readStart(): Promise<StartRead> {
      let error: unknown = null;
      if (readsPage) {
        try {
          return { page: await readStartPage(scraper, query.url, workspace, abort, proxy), doc: null, error: null };
        } catch (err) {
          error = err;
          // No document plugin reads it: the start URL may itself be a sitemap or a feed.
          const notAPage = err instanceof TrawlError && err.code === 'unsupported_content';
          if (!notAPage || !readsSitemaps) return { page: null, doc: null, error };
        }
      }
      const doc = await sitemaps.readStart(query.url);
      return { page: null, doc, error: error ?? (doc.ok ? null : doc.error) };
    }
    // The start URL and its origin's robots.txt are independent: read them together.
    const [read, startRobots] = await Promise.all([readStart(), robotsSitemaps(start.origin)]);
    const { page, doc } = read;
    const finalUrl = new URL(page?.finalUrl ?? (doc?.ok ? doc.finalUrl : query.url));
    const startIsSitemap = isSitemap(doc);
    reached(start, !startIsSitemap);
    reached(finalUrl, !startIsSitemap);
    // Its own entries before the other sitemaps'.
    if (startIsSitemap && doc?.ok && doc.doc) sitemaps.take(doc.doc, query.url);

    if (readsPage && !page && !read.error) warn('start page not read: the links and attributes formats are disabled');
    for (const warning of page?.warnings ?? []) warn(warning);
    if (page?.ok) collector.add(page.title ? { url: page.finalUrl, title: page.title } : { url: page.finalUrl });
    // `only`: the start URL was fetched, not scraped; a page (not a sitemap) that answered is listed.
    if (!readsPage && doc?.ok && doc.doc && !startIsSitemap) collector.add({ url: doc.finalUrl });

    if (readsSitemaps) {
      const robotsLines = finalUrl.origin === start.origin ? startRobots : [...startRobots, ...(await robotsSitemaps(finalUrl.origin))];
      // Sitemaps before feeds: they are the site's own complete list.
      for (const url of robotsLines) sitemaps.enqueue(url);
      for (const origin of new Set([start.origin, finalUrl.origin])) sitemaps.enqueue(`${origin}/sitemap.xml`, 0, true);
    }
    for (const feed of page?.feeds ?? []) sitemaps.enqueue(feed);
    await sitemaps.drain();
    for (const link of page?.links ?? []) collector.add(link);

    if (deadline.aborted) warn(`stopped after ${limits.timeoutMs} ms; the list may be incomplete`);
    const links = collector.links();
    if (links.length === 0 && read.error && !doc?.ok) throw read.error;
    if (links.length <= 1 && collector.leftOutByPath) {
      warn(`only URLs under ${[...bases.keys()].join(' and ')} are listed (the path filter); the site has others`);
    }
    return warnings.length ? { links, warnings } : { links };
  };
}

export type Mapper = ReturnType<typeof createMapper>;
