/**
 * The `crawl.page` job: scrape one frontier URL through the Scraper (the same pipeline as
 * /v1/scrape, so documents such as PDFs go through their document plugins), find the links worth
 * following, and record the outcome (record.ts). Crawl pages obey robots.txt and per-host
 * politeness; batch pages are URLs the user listed, so only politeness applies. Transient
 * failures (no response, time limit, HTTP 429/5xx) are thrown for the queue to retry with backoff;
 * the final failure is recorded by `onFailed` with its reason.
 */
import type { Logger } from 'pino';
import type { CrawlSettings } from './config.ts';
import { asTrawlError, type BlockedDetails, fetchFailed, TrawlError } from '../../errors.ts';
import { SKIPPED } from '../../metering.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { Scraper } from '../../scrape.ts';
import type { ClaimedJob } from '../../services.ts';
import type { CrawlDb } from './tables.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { PolitenessGate } from './gate.ts';
import type { Metrics } from '../../metrics.ts';
import { NOTIFY_JOB, recordPage, type PageOutcome } from './record.ts';
import type { RobotsCache, RobotsRules } from '../../net/robots.ts';
import type { HookSender } from './hook-sender.ts';
import { storedRequest } from './legacy.ts';
import type { CrawlRequest, ScrapeOptions } from './schema.ts';
import { createScope, type Scope } from './scope.ts';
import { ACTIVE_STATUSES, PAGE_JOB, type RunRow } from './rows.ts';
import type { CrawlStore } from './store.ts';
import { crawlUrl, type CrawlUrl } from './urls.ts';

/** The longest wait a Retry-After imposes on a host's pages. */
const MAX_HOLD_OFF_SECONDS = 600;

export interface PageWorkerDeps {
  db: CrawlDb;
  store: CrawlStore;
  queue: DbJobQueue;
  scraper: Scraper;
  robots: RobotsCache;
  gate: PolitenessGate;
  config: CrawlSettings;
  logger: Logger;
  /** Sends a run's own webhook events (hooks.ts). */
  hooks: HookSender;
  /** The URLs a site's sitemaps and feeds list (the map feature), for crawls that ask for them. */
  sitemapUrls(run: RunRow, signal: AbortSignal): Promise<string[]>;
  metrics?: Metrics;
}

/** A hostile page with a million links costs a bounded amount of work. */
const MAX_LINKS_PER_PAGE = 5000;
/** A sitemap lists a site, not a page: more room, still bounded (the map feature's own limit). */
const MAX_SITEMAP_URLS = 100_000;
const TRANSIENT = new Set(['fetch_failed', 'timeout', 'internal']);
const SCOPE_CACHE = 64;
/** Glob steps per page (path characters × automaton states): tens of milliseconds at most. */
const GLOB_BUDGET = 20_000_000;
const ROBOTS_AT_ONCE = 16;

const permanent = (err: TrawlError) => Object.assign(new TrawlError(err.code, err.message, { cause: err }), { permanent: true });

interface PagePayload {
  crawl: string;
  url: string;
}

function payloadOf(job: ClaimedJob): PagePayload {
  const { crawl, url } = job.payload;
  if (typeof crawl !== 'string' || typeof url !== 'string')
    throw permanent(new TrawlError('internal', 'crawl.page job without crawl and url'));
  return { crawl, url };
}

/** Formats the user asked for, plus `links` for discovery (removed again unless asked for). */
function scrapeFormats(run: RunRow, options: ScrapeOptions): string[] {
  return run.kind === 'crawl' ? [...new Set([...options.formats, 'links'])] : options.formats;
}

const crawlRequest = (run: RunRow): CrawlRequest => storedRequest('crawl', run.request);

export function createPageWorker(deps: PageWorkerDeps) {
  const { store, robots, gate, config } = deps;
  const insertJobs = deps.queue.insert.bind(deps.queue);

  /** False when the page was not recorded (already recorded, or the run stopped meanwhile) or was dropped. */
  async function record(outcome: Omit<PageOutcome, 'maxPages' | 'maxAttempts'>, run: RunRow, url: string): Promise<boolean> {
    const maxPages = run.kind === 'crawl' ? crawlRequest(run).maxPages : run.admitted;
    const result = await recordPage(deps.db, insertJobs, { ...outcome, maxPages, maxAttempts: config.maxAttempts });
    if (result.queued > 0) deps.queue.poke([PAGE_JOB]);
    if (result.finished) deps.queue.poke([NOTIFY_JOB]);
    // (a dropped page — onto a known URL, or out of scope — is no page of the run: no event, no charge)
    if (result.recorded && !result.dropped) {
      deps.metrics?.crawlPages.inc({ run: run.kind, outcome: outcome.outcome });
      await deps.hooks(run, 'page', { url, ...(outcome.result ? { result: outcome.result } : { error: outcome.error }) });
    }
    return result.recorded && !result.dropped;
  }

  // Compiled globs of recently active crawls: pages of one crawl arrive together.
  const scopes = new Map<string, Scope>();
  function scopeOf(run: RunRow, hosts: string[]): Scope {
    const key = `${run.id} ${hosts.join(' ')}`;
    let scope = scopes.get(key);
    if (!scope) {
      const request = crawlRequest(run);
      scope = createScope({
        hosts,
        allowSubdomains: request.allowSubdomains,
        allowExternal: request.allowExternalLinks,
        include: request.includePaths,
        exclude: request.excludePaths,
        syntax: request.pathSyntax,
        pathPrefix: request.pathPrefix,
      });
      if (scopes.size >= SCOPE_CACHE) scopes.delete(scopes.keys().next().value!);
      scopes.set(key, scope);
    }
    return scope;
  }

  /**
   * Links to admit one level deeper: in scope, allowed by robots.txt, each once. The page's links
   * (the links format: every link of the page as fetched, whatever main content or selectors keep)
   * are capped per page; the sitemap's URLs, bounded by the map feature, come after them.
   */
  async function discover(
    run: RunRow,
    self: CrawlUrl,
    links: unknown,
    sitemap: readonly string[],
    scopeHosts: string[],
  ): Promise<CrawlUrl[]> {
    const hrefs = [
      ...(Array.isArray(links) ? links.slice(0, MAX_LINKS_PER_PAGE).map((link) => link?.href) : []),
      ...sitemap.slice(0, MAX_SITEMAP_URLS),
    ];
    const inScope = scopeOf(run, scopeHosts);
    const seen = new Set<string>([self.hash]);
    const candidates: CrawlUrl[] = [];
    let budget = GLOB_BUDGET;
    for (const href of hrefs) {
      const url = typeof href === 'string' ? crawlUrl(href) : null;
      if (!url || seen.has(url.hash)) continue;
      seen.add(url.hash);
      budget -= inScope.cost(url);
      if (budget < 0) {
        deps.logger.warn({ crawl: run.id, url: self.url }, 'path filters too costly for the links of this page; the rest are not followed');
        break;
      }
      if (inScope(url)) candidates.push(url);
    }
    const origins = [...new Set(candidates.map((c) => new URL(c.url).origin))];
    const rules = new Map<string, RobotsRules>();
    // A page linking to thousands of sites must not open thousands of connections at once.
    for (let i = 0; i < origins.length; i += ROBOTS_AT_ONCE) {
      const { proxy } = storedRequest(run.kind, run.request).scrapeOptions;
      await Promise.all(origins.slice(i, i + ROBOTS_AT_ONCE).map(async (o) => rules.set(o, await robots.rulesFor(o, proxy))));
    }
    return candidates.filter((c) => rules.get(new URL(c.url).origin)!.isAllowed(c.url));
  }

  /** `SKIPPED` when nothing was scraped or kept for the user (a metered page is then refunded). */
  async function handle(job: ClaimedJob, signal: AbortSignal): Promise<void | typeof SKIPPED> {
    const payload = payloadOf(job);
    const row = await store.pageContext(payload.crawl, payload.url);
    if (row?.state !== 'queued' || !ACTIVE_STATUSES.includes(row.run.status)) return SKIPPED;
    const { run } = row;
    if (run.status === 'queued') await store.markScraping(run.id);
    const self = crawlUrl(row.url);
    if (!self) throw permanent(new TrawlError('bad_request', `Not an http(s) URL: ${row.url}`));

    let delayMs = 0;
    if (run.kind === 'crawl') {
      const rules = await robots.rulesFor(row.url, storedRequest(run.kind, run.request).scrapeOptions.proxy);
      // The guard refused the origin itself: that, not robots.txt, is why the page cannot be had.
      if (rules.refusal) throw permanent(fetchFailed(rules.refusal));
      // No answer at all: the site is down or does not exist, which a robots.txt refusal would hide.
      if (rules.unreachable) throw permanent(fetchFailed(`the site could not be reached (${rules.unreachable})`));
      if (!rules.isAllowed(row.url)) {
        throw permanent(new TrawlError('bad_request', rules.unavailable ? `Disallowed: ${rules.unavailable}` : 'Disallowed by robots.txt'));
      }
      delayMs = Math.max(rules.crawlDelayMs, crawlRequest(run).delayMs ?? 0);
    }

    const options = storedRequest(run.kind, run.request).scrapeOptions;
    // The host said how long to leave it alone: none of its pages start before then (bounded: a page must not stall a crawl for hours).
    const holdOff = (seconds: number) => gate.holdOff(self.host, Math.min(seconds, MAX_HOLD_OFF_SECONDS) * 1000);
    const scrape = { ...options, url: row.url, formats: scrapeFormats(run, options) };
    // A kept page is not fetched, so it waits for no politeness slot of its host.
    const kept = await deps.scraper.cached(scrape, run.workspace);
    let release = () => {};
    let result: ScrapeResult;
    try {
      if (kept) ({ result } = kept);
      else {
        release = await gate.acquire(self.host, delayMs, signal);
        ({ result } = await deps.scraper.scrape({ ...scrape, noCache: true }, run.workspace, signal));
      }
      // Before the slot is given back, so no page of the host starts in between.
      if (result.metadata.retryAfterSeconds) await holdOff(result.metadata.retryAfterSeconds);
    } catch (err) {
      const error = asTrawlError(err);
      // A block that says when to come back (a rate-limit page with Retry-After) is waited out and tried again.
      const wait = error.code === 'blocked' ? (error.details as BlockedDetails | undefined)?.retryAfterSeconds : undefined;
      if (wait) await holdOff(wait);
      throw signal.aborted || TRANSIENT.has(error.code) || (wait && job.attempt < job.maxAttempts) ? error : permanent(error);
    } finally {
      release();
    }

    const { metadata } = result;
    const status = metadata.statusCode ?? 200;
    if ((status === 429 || status >= 500) && job.attempt < job.maxAttempts)
      throw new TrawlError('fetch_failed', `The server answered HTTP ${status}`);

    const redirect = metadata.finalUrl ? crawlUrl(metadata.finalUrl) : null;
    let scopeHosts: string[] | undefined;
    if (row.depth === 0 && redirect && !run.scopeHosts.includes(redirect.host)) scopeHosts = [...run.scopeHosts, redirect.host];
    // A followed link that redirected out of scope is not one of the crawl's pages (its slot goes to another).
    const outOfScope =
      run.kind === 'crawl' && row.depth > 0 && redirect !== null && redirect.hash !== self.hash && !scopeOf(run, run.scopeHosts)(redirect);
    const request = run.kind === 'crawl' ? crawlRequest(run) : null;
    const follow = request !== null && !outOfScope && row.depth < request.maxDepth;
    // `sitemap: only`: the start page's sitemap URLs are the crawl; no page's links are followed.
    const pageLinks = follow && request.sitemap !== 'only' ? result.formats.links : [];
    const sitemap =
      follow && row.depth === 0 && (request.sitemap === 'include' || request.sitemap === 'only') ? await deps.sitemapUrls(run, signal) : [];
    const links = follow ? await discover(run, self, pageLinks, sitemap, scopeHosts ?? run.scopeHosts) : [];
    const formats = { ...result.formats };
    if (!options.formats.includes('links')) delete formats.links;
    const stored: ScrapeResult = { ...result, formats };
    const recorded = await record(
      {
        crawlId: run.id,
        urlHash: payload.url,
        outcome: 'completed',
        result: stored,
        redirect: redirect ?? undefined,
        outOfScope,
        links,
        scopeHosts,
      },
      run,
      row.url,
    );
    return recorded ? undefined : SKIPPED;
  }

  async function onFailed(job: ClaimedJob, error: string): Promise<void> {
    const payload = payloadOf(job);
    const row = await store.pageContext(payload.crawl, payload.url);
    if (!row || !ACTIVE_STATUSES.includes(row.run.status)) return;
    deps.logger.debug({ crawl: row.run.id, error }, 'page failed');
    await record({ crawlId: row.run.id, urlHash: payload.url, outcome: 'failed', error, links: [] }, row.run, row.url);
  }

  return { handle, onFailed };
}
