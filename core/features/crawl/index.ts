/**
 * The crawl feature (crawls and batches: a batch is a crawl without discovery, sharing its tables,
 * service and page worker): the `[crawl]` section, the crawl tables, the CrawlService for the
 * routes, and the job handlers — `crawl.page` (page.ts) with per-host politeness (gate.ts in one
 * process on SQLite; shared-gate.ts across every worker process on Postgres), and
 * `crawl.notify`, which announces a finished run as `crawl.completed`, `crawl.failed` or
 * `batch.completed` through the EventBus (resolved when the job runs, so Trawl works without a
 * webhook registry). A run with its own wire-format webhook (hooks.ts) also gets its started, page
 * and end events in that format. `crawl.prune`, on the shared schedule, deletes finished runs
 * past `crawl.retentionHours` (retention.ts).
 */
import type { InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import { defineFeature, service, type FeatureContext, type FeatureJob } from '../../feature.ts';
import type { ClaimedJob, EventBus } from '../../services.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { JobTokens } from '../../jobs/index.ts';
import { crawlConfigSchema, type CrawlSettings } from './config.ts';
import { RobotsCache } from '../../net/robots.ts';
import { HostGate } from './gate.ts';
import { SharedHostGate } from './shared-gate.ts';
import { crawlHostsMigration } from './hosts-migration.ts';
import { MetricsToken } from '../../metrics.ts';
import { crawlTablesMigration } from './migration.ts';
import { crawlRetentionMigration } from './retention-migration.ts';
import { crawlWaitingMigration } from './waiting-migration.ts';
import { pruneJob, PRUNE_JOB, withExpiry } from './retention.ts';
import { createPageWorker } from './page.ts';
import { RunHookFormatsToken } from './hooks.ts';
import { createHookSender, type HookSender } from './hook-sender.ts';
import { storedRequest } from './legacy.ts';
import { MapTokens } from '../map/index.ts';
import { MAP_MAX_LIMIT } from '../map/map.ts';
import { eventPayload } from './present.ts';
import { NOTIFY_JOB } from './record.ts';
import { CrawlService } from './service.ts';
import { ACTIVE_STATUSES, PAGE_JOB, type RunRow } from './rows.ts';
import { createCrawlStore, type CrawlStore } from './store.ts';
import { RUN_REFUSALS, type JobMeter } from '../../metering.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { Scraper } from '../../scrape.ts';
import type { CrawlTables } from './tables.ts';

export const CrawlTokens = {
  Service: Symbol('CrawlService') as InjectionToken<CrawlService>,
  Store: Symbol('CrawlStore') as InjectionToken<CrawlStore>,
} as const;

type Ctx = FeatureContext<CrawlSettings>;

function notifier(store: CrawlStore, events: () => EventBus | null, hooks: HookSender, { settings, logger }: Ctx) {
  return async (job: ClaimedJob): Promise<void> => {
    const run = typeof job.payload.crawl === 'string' ? await store.byId(job.payload.crawl) : null;
    if (!run || run.status === 'cancelled') return;
    // The counterpart of "crawl queued": one line when the run is over.
    logger.info(
      {
        id: run.id,
        kind: run.kind,
        workspace: run.workspace,
        status: run.status,
        completed: run.completed,
        failed: run.failed,
        ms: runMs(run),
      },
      `${run.kind} ${run.status}`,
    );
    await hooks(run, run.status === 'failed' ? 'failed' : 'completed');
    const type = run.kind === 'batch' ? 'batch.completed' : run.status === 'failed' ? 'crawl.failed' : 'crawl.completed';
    const bus = events();
    if (!bus) {
      logger.debug({ id: run.id, type }, 'no event bus registered; event not sent');
      return;
    }
    const url = storedRequest(run.kind, run.request).webhookUrl;
    await bus.emit({
      type,
      workspace: run.workspace,
      data: eventPayload(withExpiry(run, settings.retentionHours)),
      ...(url ? { url } : {}),
    });
  };
}

/** From the run's creation to its end (or now, for a run whose end was not recorded). */
const runMs = (run: { createdAt: string; completedAt: string | null }) =>
  (run.completedAt ? Date.parse(run.completedAt) : Date.now()) - Date.parse(run.createdAt);

/**
 * What a page costs in cloud mode: one `crawlPage` (or `batchItem`) and the units of its model
 * formats (Scraper.formatUnits), charged to the run's usage row before the page is scraped. When
 * the workspace cannot pay (or its plan has lapsed), the run stops: status `failed` with an error
 * that says why, its queued pages cancelled, the pages already scraped kept.
 */
function pageMeter(store: CrawlStore, queue: DbJobQueue, scraper: Scraper, logger: Logger): JobMeter {
  return {
    async bill(job) {
      const run = typeof job.payload.crawl === 'string' ? await store.byId(job.payload.crawl) : null;
      if (!run || !ACTIVE_STATUSES.includes(run.status)) return null;
      return {
        run: { workspace: run.workspace, runId: run.id, endpoint: run.kind, ...(run.url ? { url: run.url } : {}) },
        // A page that asks for a language-model format costs what a scrape asking for it costs on top.
        units: {
          [run.kind === 'crawl' ? 'crawlPage' : 'batchItem']: 1,
          ...scraper.formatUnits(storedRequest(run.kind, run.request).scrapeOptions.formats),
        },
      };
    },
    async refused(_job, ref, refusal) {
      const error = (run: RunRow) => `${RUN_REFUSALS[refusal]} after ${run.completed} page${run.completed === 1 ? '' : 's'}`;
      const run = await store.fail(ref.runId, error, (db, specs) => queue.insert(db, specs), NOTIFY_JOB);
      if (!run) return;
      await queue.cancelGroup(run.id);
      queue.poke([NOTIFY_JOB]);
      logger.info(
        { id: run.id, kind: run.kind, workspace: run.workspace, completed: run.completed },
        `${run.kind} stopped: ${RUN_REFUSALS[refusal]}`,
      );
    },
  };
}

/** A host slot outlives its fetch's time limit by this much before another process may take it over. */
const SLOT_GRACE_MS = 30_000;

/**
 * What the map feature finds for a crawl's start URL (sitemaps, feeds, the start page): the crawl
 * admits those in scope like links of its start page. Nothing when map is not installed or fails.
 */
const sitemapUrls =
  (ctx: Ctx) =>
  async (run: RunRow, signal: AbortSignal): Promise<string[]> => {
    if (!run.url || !ctx.has(MapTokens.Mapper)) return [];
    const request = storedRequest('crawl', run.request);
    try {
      // (not cut at max_pages: the crawl's scope drops many of them, and the budget is the crawl's to spend)
      // (`only`: the sitemaps' URLs alone; the map would otherwise list the start page's links too)
      const sitemap = request.sitemap === 'only' ? 'only' : 'include';
      const { proxy } = request.scrapeOptions;
      const found = await ctx.resolve(MapTokens.Mapper)(
        { url: run.url, limit: MAP_MAX_LIMIT, include_subdomains: request.allowSubdomains, sitemap, ...(proxy ? { proxy } : {}) },
        run.workspace,
        signal,
      );
      return found.links.map((link) => link.url);
    } catch (err) {
      if (signal.aborted) throw err;
      ctx.logger.warn({ id: run.id, err }, "the crawl's sitemaps could not be read; it follows links only");
      return [];
    }
  };

/** Run webhooks in the formats the server handed in (none without a server: the CLI). */
const hookSender = (ctx: Ctx) =>
  createHookSender(
    () => (ctx.has(RunHookFormatsToken) ? ctx.resolve(RunHookFormatsToken) : {}),
    () => (ctx.has(Tokens.Events) ? ctx.resolve(Tokens.Events) : null),
    ctx.logger,
  );

function crawlJobs(ctx: Ctx): FeatureJob[] {
  const { settings, logger } = ctx;
  const queue = ctx.resolve(JobTokens.Queue);
  const store = ctx.resolve(CrawlTokens.Store);
  const storage = ctx.resolve(Tokens.Storage);
  const db = storage.db.withTables<CrawlTables>();
  const poke = () => queue.poke([PAGE_JOB]);
  // Postgres may have many worker processes: they share each host's politeness through the database.
  const gate =
    storage.dialect === 'postgres'
      ? new SharedHostGate(
          db,
          settings.perHostConcurrency,
          settings.perHostDelayMs,
          ctx.config.scrape.timeoutMs + SLOT_GRACE_MS,
          logger,
          poke,
        )
      : new HostGate(settings.perHostConcurrency, settings.perHostDelayMs, poke);
  const robots = ctx.resolve(Tokens.Robots);
  const scraper = ctx.resolve(CoreTokens.Scraper);
  const worker = createPageWorker({
    db,
    store,
    queue,
    scraper,
    robots,
    gate,
    config: settings,
    logger,
    hooks: hookSender(ctx),
    sitemapUrls: sitemapUrls(ctx),
    metrics: ctx.resolve(MetricsToken),
  });
  const events = () => (ctx.has(Tokens.Events) ? ctx.resolve(Tokens.Events) : null);
  const hooks = hookSender(ctx);
  return [
    {
      kind: PAGE_JOB,
      handler: worker.handle,
      meter: pageMeter(store, queue, scraper, logger),
      options: { concurrency: settings.concurrency, busyKeys: () => gate.busyHosts(), onFailed: worker.onFailed },
    },
    { kind: NOTIFY_JOB, handler: notifier(store, events, hooks, ctx), options: { concurrency: 2 } },
    { kind: PRUNE_JOB, handler: pruneJob(db, settings.retentionHours, logger), schedule: true },
  ];
}

export const crawlFeature = defineFeature<CrawlSettings>({
  name: 'crawl',
  description:
    'Crawls (POST /v1/crawl, /v2/crawl) and batches (POST /v1/batch, /v2/batch/scrape): durable, resumable runs of pipeline scrapes.',
  costs: {
    crawlPage: { credits: 1, description: 'Per crawl page, charged as it is scraped (POST /v1/crawl needs credit for one).' },
    batchItem: { credits: 1, description: 'Per batch URL, charged as it is scraped.' },
  },
  config: crawlConfigSchema,
  migrations: {
    'crawl.0001_tables': crawlTablesMigration,
    'crawl.0002_hosts': crawlHostsMigration,
    'crawl.0003_retention': crawlRetentionMigration,
    'crawl.0004_waiting': crawlWaitingMigration,
  },
  tokens: CrawlTokens,
  services: [
    // The one robots.txt cache of the process, on the crawl settings (TTL, Crawl-delay cap); map reads its Sitemap lines.
    service(
      Tokens.Robots,
      (ctx: Ctx) =>
        new RobotsCache(ctx.resolve(Tokens.Http), {
          userAgent: ctx.config.fetch.userAgent,
          ttlMs: ctx.settings.robotsCacheSeconds * 1000,
          maxCrawlDelayMs: ctx.settings.maxCrawlDelaySeconds * 1000,
        }),
    ),
    service(CrawlTokens.Store, (ctx: Ctx) => createCrawlStore(ctx.resolve(Tokens.Storage).db.withTables<CrawlTables>())),
    service(
      CrawlTokens.Service,
      (ctx: Ctx) =>
        new CrawlService({
          store: ctx.resolve(CrawlTokens.Store),
          queue: ctx.resolve(JobTokens.Queue),
          scraper: ctx.resolve(CoreTokens.Scraper),
          settings: ctx.settings,
          fetch: ctx.config.fetch,
          logger: ctx.logger,
          hooks: hookSender(ctx),
        }),
    ),
  ],
  jobs: crawlJobs,
});
