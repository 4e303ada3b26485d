/**
 * The documents a map reads besides its start page: sitemaps (robots.txt `Sitemap:` lines,
 * `/sitemap.xml`, the entries of indexes, the start URL itself when it is one) and the feeds the
 * start page announces, fetched a few at a time through the core HttpClient under the `[map]`
 * limits (documents per request, index nesting, bytes per document). A document is fetched once
 * per request however often it is named (indexes that list each other). What a failure or a limit
 * leaves out goes to `warn`; nothing here throws, so a bad sitemap never costs the links found.
 */
import type { FetchedResponse } from '../../net/response.ts';
import type { HttpClient } from '../../services.ts';
import type { MapSettings } from './config.ts';
import { parseSitemapDocument, sitemapText, type FoundLink, type SitemapDocument } from '../../net/feeds.ts';

/** Sitemap documents fetched at once. */
const CONCURRENCY = 4;
const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, application/rss+xml, application/atom+xml, text/plain;q=0.8, */*;q=0.5';

interface Pending {
  url: string;
  depth: number;
  /** Guessed locations (`/sitemap.xml`) may be missing without that being worth a warning. */
  guessed: boolean;
}

/** One fetched document: the response's final URL and status, and what it holds (nothing for a status of 400 or more). */
export type ReadOutcome = { ok: true; finalUrl: string; status: number; doc: SitemapDocument | null } | { ok: false; error: unknown };

export interface SitemapReaderDeps {
  http: HttpClient;
  limits: Readonly<MapSettings>;
  signal: AbortSignal;
  warn(message: string): void;
  /** Where the links of every document go. */
  add(link: FoundLink): void;
  /** True once no more links are wanted (the limit). */
  full(): boolean;
  /** The request's proxy choice, for every document read. */
  proxy?: string;
}

export class SitemapReader {
  readonly #queue: Pending[] = [];
  readonly #seen = new Set<string>();
  #fetched = 0;

  constructor(private readonly deps: SitemapReaderDeps) {}

  /** Queues a document unless this request has queued or read it already. */
  enqueue(url: string, depth = 0, guessed = false): void {
    if (this.#seen.has(url)) return;
    this.#seen.add(url);
    this.#queue.push({ url, depth, guessed });
  }

  /**
   * Fetches the start URL as a document, before the queue. Quiet like a guess: the caller sees the
   * outcome, learns where it redirected (the site) and then hands a sitemap to `take`.
   */
  async readStart(url: string): Promise<ReadOutcome> {
    this.#seen.add(url);
    this.#fetched++;
    return this.#read(url);
  }

  /** Reads the queue until it is empty, the limit is reached, a bound is hit or time is up. */
  async drain(): Promise<void> {
    const { limits, signal, warn } = this.deps;
    while (this.#queue.length > 0 && !this.deps.full() && !signal.aborted) {
      const room = limits.maxSitemaps - this.#fetched;
      if (room <= 0) {
        warn(`sitemap limit reached: ${limits.maxSitemaps} documents fetched, ${this.#queue.length} more not fetched`);
        return;
      }
      const batch = this.#queue.splice(0, Math.min(CONCURRENCY, room));
      this.#fetched += batch.length;
      const docs = await Promise.all(batch.map((item) => this.#load(item)));
      // In queue order, whichever answered first: the list's order does not depend on timing.
      docs.forEach((doc, i) => {
        if (doc) this.take(doc, batch[i]!.url, batch[i]!.depth);
      });
    }
  }

  /** A document's links go to the list; an index's children join the queue while nesting allows. */
  take(doc: SitemapDocument, url: string, depth = 0): void {
    for (const link of doc.links) this.deps.add(link);
    if (doc.sitemaps.length && depth + 1 > this.deps.limits.maxSitemapDepth) {
      this.deps.warn(`sitemap index ${url} not followed: nested deeper than ${this.deps.limits.maxSitemapDepth}`);
      return;
    }
    for (const child of doc.sitemaps) this.enqueue(child, depth + 1);
  }

  async #read(url: string): Promise<ReadOutcome> {
    const { http, limits, signal } = this.deps;
    try {
      const response: FetchedResponse = await http.request(url, {
        signal,
        maxBodyBytes: limits.maxSitemapBytes,
        headers: { accept: SITEMAP_ACCEPT },
        ...(this.deps.proxy ? { proxy: this.deps.proxy } : {}),
      });
      if (response.status >= 400) return { ok: true, finalUrl: response.finalUrl, status: response.status, doc: null };
      const doc = parseSitemapDocument(await sitemapText(response.body, limits.maxSitemapBytes), response.finalUrl);
      return { ok: true, finalUrl: response.finalUrl, status: response.status, doc };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** One queued document, or null after reporting why not (a guessed location only when it was there and broken). */
  async #load(item: Pending): Promise<SitemapDocument | null> {
    const { signal, warn } = this.deps;
    const outcome = await this.#read(item.url);
    if (!outcome.ok) {
      if (!signal.aborted) warn(`sitemap ${item.url} skipped: ${(outcome.error as Error).message.replace(/^Failed to fetch URL: /, '')}`);
      return null;
    }
    if (!outcome.doc) {
      if (!item.guessed) warn(`sitemap ${item.url} skipped: HTTP ${outcome.status}`);
      return null;
    }
    if (outcome.doc.kind === 'unknown' && !item.guessed) warn(`sitemap ${item.url} skipped: not a sitemap or feed`);
    return outcome.doc;
  }
}
