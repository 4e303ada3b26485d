/**
 * The process's Prometheus metrics (prom-client), one registry per Trawl instance: the instruments
 * core, features and the HTTP edge record into, and gauges read at scrape time from whatever
 * reports state (browser pool, content workers, job queue). Labels are bounded by construction:
 * route templates, stage names, plugin ids, job kinds, fixed outcome and reason words — never a
 * URL, host or id. The server renders `text()` at /metrics, with prom-client's default process
 * metrics (CPU, memory, heap, event-loop lag, handles) after Trawl's own.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { InjectionToken } from 'tsyringe';
import type { BrowserPoolStats, QueueStats } from './services.ts';
import type { WorkerPoolStats } from './workers/options.ts';

/** What the gauges read when scraped; each source is set by whoever owns the state. */
export interface MetricSources {
  browser?: () => BrowserPoolStats | null;
  workers?: () => WorkerPoolStats | null;
  queue?: () => Promise<QueueStats>;
}

/**
 * The process metrics, once per process: they describe the process, not one Trawl instance (tests
 * start many in one), and each collection keeps an event-loop delay monitor running.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Metrics {
  readonly registry = new Registry();
  readonly sources: MetricSources = {};
  private readonly on = { registers: [this.registry] };

  readonly httpRequests = new Counter({
    name: 'trawl_http_requests_total',
    help: 'HTTP requests answered, by route template and status.',
    labelNames: ['method', 'route', 'status'],
    ...this.on,
  });
  readonly httpDuration = new Histogram({
    name: 'trawl_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template.',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS,
    ...this.on,
  });
  readonly mcpCalls = new Counter({
    name: 'trawl_mcp_tool_calls_total',
    help: 'MCP tool calls, by tool and outcome.',
    labelNames: ['tool', 'outcome'],
    ...this.on,
  });
  readonly stageDuration = new Histogram({
    name: 'trawl_pipeline_stage_duration_seconds',
    help: 'Time spent in each pipeline stage of a scrape.',
    labelNames: ['stage'],
    buckets: SECONDS,
    ...this.on,
  });
  readonly pluginDuration = new Histogram({
    name: 'trawl_plugin_duration_seconds',
    help: 'Time spent in each fetcher and transform plugin.',
    labelNames: ['plugin'],
    buckets: SECONDS,
    ...this.on,
  });
  readonly scrapes = new Counter({
    name: 'trawl_scrapes_total',
    help: 'Pipeline runs, by outcome (ok, failed) and the failing stage.',
    labelNames: ['outcome', 'stage'],
    ...this.on,
  });
  readonly fetches = new Counter({
    name: 'trawl_fetches_total',
    help: 'Outbound fetches by outcome: ok with the status class, or failed with the reason (ssrf_refused for the address guard).',
    labelNames: ['client', 'outcome', 'reason'],
    ...this.on,
  });
  readonly blockedPages = new Counter({
    name: 'trawl_blocked_pages_total',
    help: 'Fetched pages recognised as anti-bot interstitials, block pages or CAPTCHA walls, by vendor.',
    labelNames: ['vendor'],
    ...this.on,
  });
  readonly jobs = new Counter({
    name: 'trawl_jobs_total',
    help: 'Jobs run by this process, by kind and outcome (done, retried, failed).',
    labelNames: ['kind', 'outcome'],
    ...this.on,
  });
  readonly crawlPages = new Counter({
    name: 'trawl_crawl_pages_total',
    help: 'Crawl and batch pages recorded, by run kind and outcome.',
    labelNames: ['run', 'outcome'],
    ...this.on,
  });
  readonly webhookDeliveries = new Counter({
    name: 'trawl_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retried, failed).',
    labelNames: ['outcome'],
    ...this.on,
  });
  readonly creditsCharged = new Counter({
    name: 'trawl_credits_charged_total',
    help: 'Credits charged in cloud mode, by endpoint or job kind.',
    labelNames: ['endpoint'],
    ...this.on,
  });
  readonly creditsRefunded = new Counter({
    name: 'trawl_credits_refunded_total',
    help: 'Credits given back in cloud mode (work that failed or was not delivered), by endpoint or job kind.',
    labelNames: ['endpoint'],
    ...this.on,
  });

  constructor() {
    const sources = this.sources;
    const gauge = (
      name: string,
      help: string,
      labelNames: string[],
      read: (set: (value: number, labels?: Record<string, string>) => void) => void | Promise<void>,
    ) =>
      new Gauge({
        name,
        help,
        labelNames,
        ...this.on,
        async collect() {
          this.reset();
          await read((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
        },
      });
    const browser = (read: (stats: BrowserPoolStats) => number) => (set: (value: number) => void) => {
      const stats = sources.browser?.();
      if (stats) set(read(stats));
    };
    const workers = (read: (stats: WorkerPoolStats) => number) => (set: (value: number) => void) => {
      const stats = sources.workers?.();
      if (stats) set(read(stats));
    };
    gauge(
      'trawl_browser_contexts_active',
      'Browser contexts in use by jobs.',
      [],
      browser((s) => s.activeContexts),
    );
    gauge(
      'trawl_browser_waiting',
      'Jobs waiting for a browser context.',
      [],
      browser((s) => s.waiting),
    );
    gauge(
      'trawl_browser_launches',
      'Chromium launches since start (a relaunch after a crash or recycle adds one).',
      [],
      browser((s) => s.launches),
    );
    gauge(
      'trawl_browser_pages_served',
      'Pages the browser pool has served since start.',
      [],
      browser((s) => s.pagesServed),
    );
    gauge(
      'trawl_content_workers',
      'Content worker threads running.',
      [],
      workers((s) => s.workers),
    );
    gauge(
      'trawl_content_workers_busy',
      'Content tasks running.',
      [],
      workers((s) => s.busy),
    );
    gauge(
      'trawl_content_workers_queued',
      'Content tasks waiting for a worker.',
      [],
      workers((s) => s.queued),
    );
    gauge(
      'trawl_content_workers_replaced',
      'Content workers killed and replaced (timeout, abort, crash, memory) since start.',
      [],
      workers((s) => s.replaced),
    );
    // One reading of the queue serves the four gauges of a scrape.
    let reading: { at: number; stats: Promise<QueueStats | null> } | null = null;
    const queue = () => {
      if (!sources.queue) return Promise.resolve(null);
      if (!reading || Date.now() - reading.at > 1000) reading = { at: Date.now(), stats: sources.queue().catch(() => null) };
      return reading.stats;
    };
    gauge('trawl_jobs_queued', 'Jobs waiting in the queue (due or scheduled), by kind.', ['kind'], async (set) => {
      for (const kind of (await queue())?.kinds ?? []) set(kind.queued, { kind: kind.kind });
    });
    gauge('trawl_jobs_running', 'Jobs being run by any worker, by kind.', ['kind'], async (set) => {
      for (const kind of (await queue())?.kinds ?? []) set(kind.running, { kind: kind.kind });
    });
    gauge('trawl_jobs_lag_seconds', 'How long the oldest due job of a kind has waited past its time.', ['kind'], async (set) => {
      for (const kind of (await queue())?.kinds ?? []) set(kind.lagSeconds, { kind: kind.kind });
    });
    gauge('trawl_job_workers_alive', 'Worker processes that reported in within a lease.', [], async (set) => {
      const stats = await queue();
      if (stats) set(stats.workersAlive);
    });
  }

  /** The text exposition format: Trawl's metrics, then the process's. */
  async text(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return own.endsWith('\n') || !own ? own + process : `${own}\n${process}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

export const MetricsToken = Symbol('Metrics') as InjectionToken<Metrics>;
