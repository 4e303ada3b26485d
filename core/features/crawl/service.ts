/**
 * The crawl and batch service the routes call: validates what a request asks of the scrape
 * pipeline before anything is queued, creates runs with their seed pages, and answers status,
 * results, history, retry and cancel — always scoped to the caller's workspace (another
 * workspace's id is simply not found, and so is a run past its retention: retention.ts). The work
 * itself happens in `crawl.page` jobs (page.ts).
 */
import type { Logger } from 'pino';
import type { CrawlSettings } from './config.ts';
import { badRequest, TrawlError } from '../../errors.ts';
import type { TrawlConfig } from '../../config-schema.ts';
import { receiverRefusal } from '../../net/receiver.ts';
import { createJob } from '../../job.ts';
import type { FieldNamer } from '../../plugin.ts';
import { internalNames, type Scraper } from '../../scrape.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { HookSender } from './hook-sender.ts';
import { storedRequest } from './legacy.ts';
import {
  batchFields,
  crawlFields,
  crawlRequestSchema,
  scrapeOptionsOf,
  type BatchRequest,
  type CrawlRequest,
  type ScrapeOptions,
  type StoredBatch,
} from './schema.ts';
import { ACTIVE_STATUSES, PAGE_JOB, type PageRow, type RunKind, type RunRow } from './rows.ts';
import type { CrawlStore } from './store.ts';
import { crawlUrl, type CrawlUrl } from './urls.ts';
import { expiredUntil, isExpired, withExpiry } from './retention.ts';

export interface CrawlServiceDeps {
  store: CrawlStore;
  queue: DbJobQueue;
  scraper: Scraper;
  settings: Readonly<CrawlSettings>;
  /** The fetch settings, for the SSRF guard's check of a `webhookUrl` when a run starts. */
  fetch: Readonly<TrawlConfig['fetch']>;
  logger: Logger;
  /** Sends a run's own webhook events (hooks.ts). */
  hooks: HookSender;
}

const NAMES: Record<RunKind, string> = { crawl: 'Crawl', batch: 'Batch' };

export class CrawlService {
  /** The field schemas wire formats build their crawl and batch bodies from (each names them its own way). */
  readonly fields: {
    crawl: ReturnType<typeof crawlFields>;
    batch: ReturnType<typeof batchFields>;
    scrapeOptions: ReturnType<typeof scrapeOptionsOf>;
  };
  private readonly crawlSchema: ReturnType<typeof crawlRequestSchema>;

  constructor(private readonly deps: CrawlServiceDeps) {
    const scrapeRequest = deps.scraper.request.schema;
    this.fields = { crawl: crawlFields(deps.settings), batch: batchFields(deps.settings), scrapeOptions: scrapeOptionsOf(scrapeRequest) };
    this.crawlSchema = crawlRequestSchema(deps.settings, scrapeRequest);
  }

  /** The `[crawl]` limits (page and batch sizes) wire formats clamp or check against. */
  get limits(): Readonly<CrawlSettings> {
    return this.deps.settings;
  }

  /** The same checks as a scrape (formats, capabilities), once, before any page is queued. */
  private validateScrape(options: ScrapeOptions, url: string, workspace: string, discovers: boolean, name: FieldNamer): void {
    const job = (formats: string[]) => createJob({ ...options, url, formats }, workspace, new AbortController().signal);
    this.deps.scraper.validate(job(options.formats), name);
    if (!discovers || options.formats.includes('links')) return;
    try {
      this.deps.scraper.validate(job(['links']), name);
    } catch {
      throw badRequest('Crawling needs the links format to discover pages: enable plugin format.links');
    }
  }

  /** A receiver the SSRF guard forbids is refused when the run starts, not after it ends. */
  private async checkReceiver(url: string | undefined, name: FieldNamer): Promise<void> {
    const refusal = url === undefined ? null : await receiverRefusal(url, this.deps.fetch);
    if (refusal) throw badRequest(`Invalid field ${name('webhookUrl')}: ${refusal}`);
  }

  private async create(
    kind: RunKind,
    workspace: string,
    url: string | null,
    request: CrawlRequest | StoredBatch,
    seeds: CrawlUrl[],
    retryOf: string | null,
  ): Promise<RunRow> {
    const { store, queue, settings } = this.deps;
    const run = await store.create(
      {
        id: crypto.randomUUID(),
        workspace,
        kind,
        url,
        request: { ...request },
        scopeHosts: [...new Set(seeds.map((s) => s.host))],
        retryOf,
        seeds,
      },
      (db, specs) => queue.insert(db, specs),
      settings.maxAttempts,
    );
    queue.poke([PAGE_JOB]);
    this.deps.logger.info({ id: run.id, kind, workspace, pages: seeds.length }, `${kind} queued`);
    await this.deps.hooks(run, 'started');
    return run;
  }

  /** `name` is how the caller's wire format names request fields, for messages. */
  async startCrawl(
    request: CrawlRequest,
    workspace: string,
    retryOf: string | null = null,
    name: FieldNamer = internalNames,
  ): Promise<RunRow> {
    this.validateScrape(request.scrapeOptions, request.url, workspace, true, name);
    await this.checkReceiver(request.webhookUrl, name);
    await this.checkReceiver(request.hook?.url, () => name('webhook'));
    const start = crawlUrl(request.url);
    if (!start) throw badRequest(`Invalid field ${name('url')}: must be an absolute http(s) URL`);
    return this.create('crawl', workspace, request.url, request, [start], retryOf);
  }

  async startBatch(request: BatchRequest, workspace: string, name: FieldNamer = internalNames): Promise<RunRow> {
    const { urls, ...stored } = request;
    this.validateScrape(request.scrapeOptions, urls[0]!, workspace, false, name);
    await this.checkReceiver(request.webhookUrl, name);
    await this.checkReceiver(request.hook?.url, () => name('webhook'));
    const seeds = new Map<string, CrawlUrl>();
    urls.forEach((url, index) => {
      const parsed = crawlUrl(url);
      if (!parsed) throw badRequest(`Invalid field ${name(`urls[${index}]`)}: must be an absolute http(s) URL`);
      if (!seeds.has(parsed.hash)) seeds.set(parsed.hash, parsed);
    });
    // The URLs live on as frontier rows; the stored request is what every page needs to read.
    return this.create('batch', workspace, null, stored satisfies StoredBatch, [...seeds.values()], null);
  }

  /** The run with its expiry, or 404 — also for ids of another workspace, and once it expired even before it is pruned. */
  async find(workspace: string, kind: RunKind, id: string): Promise<RunRow> {
    const { retentionHours } = this.deps.settings;
    const now = Date.now();
    const run = id.length <= 64 ? await this.deps.store.get(workspace, kind, id) : null;
    if (!run || isExpired(run, retentionHours, now)) throw new TrawlError('not_found', `${NAMES[kind]} not found: ${id.slice(0, 64)}`);
    return withExpiry(run, retentionHours, now);
  }

  pages(run: RunRow, query: { offset: number; limit: number; outcome?: PageRow['outcome'] }): Promise<PageRow[]> {
    return this.deps.store.pages(run.id, query);
  }

  pagesAfter(run: RunRow, seq: number, limit: number): Promise<PageRow[]> {
    return this.deps.store.pagesAfter(run.id, seq, limit);
  }

  /** The workspace's crawls, newest first, without expired ones. */
  async history(workspace: string, query: { offset: number; limit: number }): Promise<{ items: RunRow[]; total: number }> {
    const { retentionHours } = this.deps.settings;
    const now = Date.now();
    const { items, total } = await this.deps.store.list(workspace, 'crawl', { ...query, endedAfter: expiredUntil(retentionHours, now) });
    return { items: items.map((run) => withExpiry(run, retentionHours, now)), total };
  }

  /** The workspace's queued and running runs of one kind, newest first. */
  async active(workspace: string, kind: RunKind, limit = 1000): Promise<RunRow[]> {
    const runs = await this.deps.store.active(workspace, kind, limit);
    return runs.map((run) => withExpiry(run, this.deps.settings.retentionHours));
  }

  /** A new crawl with the original's configuration; refused while the original still runs. */
  async retry(workspace: string, id: string): Promise<RunRow> {
    const original = await this.find(workspace, 'crawl', id);
    if (ACTIVE_STATUSES.includes(original.status))
      throw new TrawlError('conflict', `Crawl ${id} is still ${original.status}; cancel it or wait until it ends`);
    // Re-validated: the configuration may have changed since (a plugin disabled, lower limits).
    const request = this.crawlSchema.safeParse(storedRequest('crawl', original.request));
    if (!request.success)
      throw badRequest(`Crawl ${id} cannot be retried with the current configuration: ${request.error.issues[0]?.message}`);
    return this.startCrawl(request.data as CrawlRequest, workspace, original.id);
  }

  /** Stops a queued or running run; cancelling twice is fine, cancelling a finished run is a conflict. */
  async cancel(workspace: string, kind: RunKind, id: string): Promise<RunRow> {
    await this.find(workspace, kind, id);
    const run = (await this.deps.store.cancel(workspace, kind, id))!;
    if (run.status !== 'cancelled') throw new TrawlError('conflict', `${NAMES[kind]} ${id} already ${run.status}`);
    await this.deps.queue.cancelGroup(run.id);
    return run;
  }
}
