/**
 * Map: a site's URLs without scraping its pages. Sources, in the order links are listed: the start
 * page itself, sitemaps named by robots.txt `Sitemap:` lines and `/sitemap.xml` (indexes followed
 * recursively, gzip too), RSS/Atom feeds the start page announces, then the start page's links.
 * Every fetch goes through the core HttpClient (SSRF guard, timeouts, body cap); the number of
 * sitemap documents, their nesting, their size and the whole request's time are bounded, and what
 * was skipped is reported in `warnings` instead of failing the request.
 */
import robotsParser from 'robots-parser';
import { z } from 'zod';
import type { MapSettings } from './config.ts';
import type { FetchedResponse } from '../../document.ts';
import { httpUrl } from '../../model/request.ts';
import type { HttpClient } from '../../services.ts';
import { LinkCollector, searchFilter, siteScope } from './collect.ts';
import { parseSitemapDocument, sitemapText, type FoundLink, type SitemapDocument } from './documents.ts';
import { readStartPage } from './page.ts';

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
const MAX_ROBOTS_BYTES = 512 * 1024;
const MAX_WARNINGS = 20;
/** Servers that label their pages text/plain still get their links read. */
const LOOKS_LIKE_HTML = /^\s*<(!doctype html|html[\s>])/i;
const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, application/rss+xml, application/atom+xml, text/plain;q=0.8, */*;q=0.5';

interface Pending {
  url: string;
  depth: number;
  /** Guessed locations (`/sitemap.xml`) may be missing without that being worth a warning. */
  guessed: boolean;
}

export function createMapper(http: HttpClient, limits: Readonly<MapSettings>) {
  return async function map(request: MapRequest, signal?: AbortSignal): Promise<MapResult> {
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const abort = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const warnings: string[] = [];
    const warn = (message: string) => { if (warnings.length < MAX_WARNINGS) warnings.push(message); };
    const collector = new LinkCollector(request.limit, searchFilter(request.search));

    const fetchDoc = (url: string, maxBodyBytes?: number, accept?: string) =>
      http.request(url, { signal: abort, maxBodyBytes, headers: accept ? { accept } : undefined });

    const robotsSitemaps = async (origin: string): Promise<string[]> => {
      const robotsUrl = `${origin}/robots.txt`;
      const response = await fetchDoc(robotsUrl, MAX_ROBOTS_BYTES, 'text/plain').catch(() => null);
      if (!response || response.status !== 200 || response.text === undefined) return [];
      return robotsParser(robotsUrl, response.text).getSitemaps();
    };

    const readDocument = async (response: FetchedResponse): Promise<SitemapDocument> =>
      parseSitemapDocument(await sitemapText(response.body, limits.maxSitemapBytes), response.finalUrl);

    // The start page and the start origin's robots.txt are independent: fetch them together.
    const start = new URL(request.url);
    const [page, startRobots] = await Promise.all([
      fetchDoc(request.url).then((r) => ({ response: r, error: null }), (error: unknown) => ({ response: null, error })),
      robotsSitemaps(start.origin),
    ]);
    const finalUrl = page.response ? new URL(page.response.finalUrl) : start;
    collector.setScope(siteScope([start.hostname, finalUrl.hostname], request.include_subdomains));

    const queue: Pending[] = [];
    const seen = new Set<string>();
    const enqueue = (url: string, depth: number, guessed = false) => {
      if (seen.has(url)) return;
      seen.add(url);
      queue.push({ url, depth, guessed });
    };

    let pageLinks: FoundLink[] = [];
    const response = page.response;
    if (response) {
      const ok = response.status < 400;
      if (/html/.test(response.mediaType) || LOOKS_LIKE_HTML.test(response.text?.slice(0, 512) ?? '')) {
        const startPage = readStartPage(response.text ?? '', response.finalUrl);
        if (ok) collector.add(startPage.title ? { url: response.finalUrl, title: startPage.title } : { url: response.finalUrl });
        pageLinks = startPage.links;
        for (const feed of startPage.feeds) enqueue(feed, 0);
      } else if (ok) {
        // The start URL may itself be a sitemap or a feed.
        seen.add(response.finalUrl);
        const doc = await readDocument(response).catch(() => null);
        for (const link of doc?.links ?? []) collector.add(link);
        for (const child of doc?.sitemaps ?? []) enqueue(child, 1);
      }
    }
    const robots = finalUrl.origin === start.origin ? startRobots : [...startRobots, ...(await robotsSitemaps(finalUrl.origin))];
    // Sitemaps before feeds: they are the site's own complete list.
    const feeds = queue.splice(0);
    for (const url of robots) enqueue(url, 0);
    for (const origin of new Set([start.origin, finalUrl.origin])) enqueue(`${origin}/sitemap.xml`, 0, true);
    queue.push(...feeds);

    let fetched = 0;
    const load = async (item: Pending): Promise<SitemapDocument | null> => {
      try {
        const res = await fetchDoc(item.url, limits.maxSitemapBytes, SITEMAP_ACCEPT);
        if (res.status >= 400) {
          if (!item.guessed) warn(`sitemap ${item.url} skipped: HTTP ${res.status}`);
          return null;
        }
        const doc = await readDocument(res);
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
    for (const link of pageLinks) collector.add(link);

    if (deadline.aborted) warn(`stopped after ${limits.timeoutMs} ms; the list may be incomplete`);
    const links = collector.links();
    if (links.length === 0 && page.error) throw page.error;
    return warnings.length ? { links, warnings } : { links };
  };
}

export type Mapper = ReturnType<typeof createMapper>;
