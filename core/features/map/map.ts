/**
 * Map: a site's URLs without scraping its pages (only the start page, through the pipeline:
 * start.ts). Sources, in the order links are listed: the start page itself, sitemaps named by
 * robots.txt `Sitemap:` lines (the shared robots.txt cache, core/net/robots.ts) and
 * `/sitemap.xml` (indexes followed recursively, gzip too), RSS/Atom feeds the start page
 * announces, then the start page's links. A start URL no document plugin reads is read as a
 * sitemap or feed itself. Every fetch goes through the core HttpClient (SSRF guard, timeouts, body
 * cap); the number of sitemap documents, their nesting, their size and the whole request's time
 * are bounded, and what was skipped is reported in `warnings` instead of failing the request.
 */
import { z } from 'zod';
import type { MapSettings } from './config.ts';
import { TrawlError } from '../../errors.ts';
import type { FetchedResponse } from '../../document.ts';
import { httpUrl } from '../../model/request.ts';
import type { RobotsCache } from '../../net/robots.ts';
import { scopeMode, siteScope } from '../../net/scope.ts';
import type { Scraper } from '../../scrape.ts';
import type { HttpClient } from '../../services.ts';
import { LinkCollector, searchFilter } from './collect.ts';
import { parseSitemapDocument, sitemapText, type FoundLink, type SitemapDocument } from './documents.ts';
import { readStartPage, type StartPage } from './start.ts';

export const MAP_DEFAULT_LIMIT = 5000;
export const MAP_MAX_LIMIT = 100_000;

export const mapRequestSchema = z.strictObject({
  url: httpUrl,
  search: z.string().trim().max(500).optional().describe('Keeps links whose URL or title contains every word of it (case-insensitive).'),
  limit: z.number().int().min(1).max(MAP_MAX_LIMIT).default(MAP_DEFAULT_LIMIT).describe(`Most links returned; default ${MAP_DEFAULT_LIMIT}, at most ${MAP_MAX_LIMIT}.`),
  include_subdomains: z.boolean().default(false).describe('Also list URLs on other hosts of the same registrable domain (blog.example.com for example.com).'),
});

export type MapRequest = z.output<typeof mapRequestSchema>;

export interface MapResult {
  links: FoundLink[];
  warnings?: string[];
}

/** Sitemap documents fetched at once. */
const CONCURRENCY = 4;
const MAX_WARNINGS = 20;
const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, application/rss+xml, application/atom+xml, text/plain;q=0.8, */*;q=0.5';

interface Pending {
  url: string;
  depth: number;
  /** Guessed locations (`/sitemap.xml`) may be missing without that being worth a warning. */
  guessed: boolean;
  /** The start URL itself, read as a sitemap: where it redirects joins the scope. */
  start: boolean;
}

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

export function createMapper({ http, scraper, settings: limits, robots }: MapperDeps) {
  return async function map(request: MapRequest, workspace: string, signal?: AbortSignal): Promise<MapResult> {
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const abort = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const warnings: string[] = [];
    const warn = (message: string) => { if (warnings.length < MAX_WARNINGS) warnings.push(message); };
    const collector = new LinkCollector(request.limit, searchFilter(request.search));

    const fetchDoc = (url: string, maxBodyBytes?: number, accept?: string) =>
      http.request(url, { signal: abort, maxBodyBytes, headers: accept ? { accept } : undefined });

    const robotsSitemaps = (origin: string): Promise<readonly string[]> =>
      untilAborted(robots.rulesFor(origin).then((rules) => rules.sitemaps), abort, []);

    const readDocument = async (response: FetchedResponse): Promise<SitemapDocument> =>
      parseSitemapDocument(await sitemapText(response.body, limits.maxSitemapBytes), response.finalUrl);

    // The start page and the start origin's robots.txt are independent: read them together.
    const start = new URL(request.url);
    const [read, startRobots] = await Promise.all([
      readStartPage(scraper, request.url, workspace, abort).then((page) => ({ page, error: null }), (error: unknown) => ({ page: null, error })),
      robotsSitemaps(start.origin),
    ]);
    const page: StartPage | null = read.page;
    // No document plugin reads it: the start URL may itself be a sitemap or a feed.
    const startIsSitemap = read.error instanceof TrawlError && read.error.code === 'unsupported_content';
    const finalUrl = page ? new URL(page.finalUrl) : start;
    // The site is the start URL's host and where it redirected.
    const hosts = new Set([start.hostname]);
    const mode = scopeMode({ subdomains: request.include_subdomains });
    const widenScope = (url: URL) => {
      hosts.add(url.hostname);
      collector.setScope(siteScope([...hosts], mode));
    };
    widenScope(finalUrl);

    const queue: Pending[] = [];
    const seen = new Set<string>();
    const enqueue = (url: string, depth: number, guessed = false, isStart = false) => {
      if (seen.has(url)) return;
      seen.add(url);
      queue.push({ url, depth, guessed, start: isStart });
    };

    if (!page && !read.error) warn('start page not read: the links and attributes formats are disabled');
    for (const warning of page?.warnings ?? []) warn(warning);
    if (page?.ok) collector.add(page.title ? { url: page.finalUrl, title: page.title } : { url: page.finalUrl });
    // Quiet like a guess: a start URL that is neither page nor sitemap (an image) is not worth a warning.
    if (startIsSitemap) enqueue(request.url, 0, true, true);
    const robotsLines = finalUrl.origin === start.origin ? startRobots : [...startRobots, ...(await robotsSitemaps(finalUrl.origin))];
    // Sitemaps before feeds: they are the site's own complete list.
    for (const url of robotsLines) enqueue(url, 0);
    for (const origin of new Set([start.origin, finalUrl.origin])) enqueue(`${origin}/sitemap.xml`, 0, true);
    for (const feed of page?.feeds ?? []) enqueue(feed, 0);

    let fetched = 0;
    const load = async (item: Pending): Promise<SitemapDocument | null> => {
      try {
        const res = await fetchDoc(item.url, limits.maxSitemapBytes, SITEMAP_ACCEPT);
        if (res.status >= 400) {
          if (!item.guessed) warn(`sitemap ${item.url} skipped: HTTP ${res.status}`);
          return null;
        }
        const doc = await readDocument(res);
        if (item.start) widenScope(new URL(res.finalUrl));
        if (doc.kind === 'unknown' && !item.guessed) warn(`sitemap ${item.url} skipped: not a sitemap or feed`);
        return doc;
      } catch (err) {
        if (!abort.aborted) warn(`sitemap ${item.url} skipped: ${(err as Error).message.replace(/^Failed to fetch URL: /, '')}`);
        return null;
      }
    };

    while (queue.length > 0 && !collector.full && !abort.aborted) {
      const room = limits.maxSitemaps - fetched;
      if (room <= 0) {
        warn(`sitemap limit reached: ${limits.maxSitemaps} documents fetched, ${queue.length} more not fetched`);
        break;
      }
      const batch = queue.splice(0, Math.min(CONCURRENCY, room));
      fetched += batch.length;
      const docs = await Promise.all(batch.map(load));
      docs.forEach((doc, i) => {
        for (const link of doc?.links ?? []) collector.add(link);
        const depth = batch[i]!.depth + 1;
        const children = doc?.sitemaps ?? [];
        if (children.length && depth > limits.maxSitemapDepth) warn(`sitemap index ${batch[i]!.url} not followed: nested deeper than ${limits.maxSitemapDepth}`);
        else for (const child of children) enqueue(child, depth);
      });
    }
    for (const link of page?.links ?? []) collector.add(link);

    if (deadline.aborted) warn(`stopped after ${limits.timeoutMs} ms; the list may be incomplete`);
    const links = collector.links();
    if (links.length === 0 && read.error && !startIsSitemap) throw read.error;
    return warnings.length ? { links, warnings } : { links };
  };
}

export type Mapper = ReturnType<typeof createMapper>;
