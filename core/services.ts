/**
 * Contracts of the core services plugins and routes resolve from the container: the leaf interfaces
 * implemented in core/net, core/storage, core/jobs and core/browser. They import no part of the
 * framework above them; the tokens they are registered under are in core/tokens.ts.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { BrowserContextOptions, Page } from 'playwright-core';
import type { FetchedResponse } from './net/response.ts';
import type { Database } from './storage/schema.ts';

export interface HttpRequestOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Defaults come from `[fetch]` in the config. */
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxRedirects?: number;
  /** Keep the first `maxBodyBytes` of a longer body (marked `truncated`) instead of failing. */
  truncateBody?: boolean;
  /**
   * The URL is a service the operator configured (a search provider's base URL), not one a request
   * named: its origin may be on loopback or a private network (SearXNG on localhost, in a compose
   * network). Only that origin is exempt from the SSRF guard; a redirect anywhere else is checked.
   */
  configuredService?: boolean;
  /** `"none"` (direct) or a pool's name (core/net/proxies.ts); unset: `fetch.proxy` when set, else direct. */
  proxy?: string;
  signal?: AbortSignal;
}

/**
 * Outbound HTTP with the security defaults: SSRF guard after DNS resolution and on every
 * redirect, timeouts, redirect limit, body cap, gzip/deflate/brotli, charset decoding of text.
 * Failures throw TrawlError `fetch_failed` (`Failed to fetch URL: <reason>`).
 */
export interface HttpClient {
  request(url: string, options?: HttpRequestOptions): Promise<FetchedResponse>;
}

export interface StoredResult {
  id: string;
  workspace: string;
  endpoint: string;
  url: string;
  optionsHash: string;
  output: Record<string, unknown>;
  createdAt: string;
}

/** Scrape outputs, kept per workspace; doubles as the response cache. */
export interface ResultStore {
  save(row: Omit<StoredResult, 'id' | 'createdAt'>): Promise<StoredResult>;
  /** Newest result for the same workspace, endpoint, URL and options not older than maxAgeSeconds. */
  findFresh(workspace: string, endpoint: string, url: string, optionsHash: string, maxAgeSeconds: number): Promise<StoredResult | null>;
  get(workspace: string, id: string): Promise<StoredResult | null>;
  /** The newest result of the workspace for this endpoint and URL, whatever its options and age. */
  latest(workspace: string, endpoint: string, url: string): Promise<StoredResult | null>;
  /** Newest first, without the outputs (a page of them could be large). */
  list(
    workspace: string,
    query: { endpoint?: string; offset: number; limit: number },
  ): Promise<{ items: StoredResultSummary[]; total: number }>;
}

export type StoredResultSummary = Omit<StoredResult, 'output'>;

export interface Storage {
  readonly dialect: 'sqlite' | 'postgres';
  /** Core's tables; a feature widens it with `db.withTables<TheirTables>()`. */
  readonly db: Kysely<Database>;
  /**
   * Runs the pending migrations of core and these, by name (a no-op when there are none); the
   * features' are collected by `featureMigrations` (core/feature-migrations.ts).
   */
  migrate(migrations: Readonly<Record<string, Migration>>): Promise<void>;
  /** Answers true when the database responds to a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** A unit of asynchronous work stored as a database row (crawl page, batch item, webhook delivery …). */
export interface JobSpec {
  /** Which handler runs it, e.g. `crawl.page`, `webhook.delivery`. */
  kind: string;
  workspace: string;
  /** JSON-serialisable input of the handler. */
  payload: Record<string, unknown>;
  /** Not before this time (retries and schedules); default now. */
  runAt?: Date;
  /** Attempts before the job is marked failed; default from config. */
  maxAttempts?: number;
  /** Optional grouping id (e.g. the crawl id) so a whole group can be counted or cancelled. */
  group?: string;
  /** Lower runs first among due jobs of a kind (default 0); crawls use the page depth. */
  priority?: number;
  /** Jobs with the same key (e.g. a host) can be held back together, see JobHandlerOptions.busyKeys. */
  key?: string;
}

export interface JobHandlerOptions {
  /** Jobs of this kind running at once in this process (default 1). */
  concurrency?: number;
  /** Keys this process must not claim right now (e.g. hosts at their politeness limit). */
  busyKeys?: () => Iterable<string>;
  /**
   * Runs once when a job gives up (permanent error, attempts exhausted, or its lease expired on
   * the last attempt), so the owner can record the failure. If it throws, the job is retried later.
   */
  onFailed?: (job: ClaimedJob, error: string) => Promise<void>;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  workspace: string;
  payload: Record<string, unknown>;
  group: string | null;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** The request that started the work, if one did (its log lines carry it). */
  requestId?: string;
}

/**
 * Handlers finish normally (done) or throw. A thrown error is retried with exponential backoff and
 * jitter until maxAttempts, unless it has `permanent: true` (then the job fails at once). A handler
 * that found nothing to do answers `'skipped'`, so a metered run is refunded (core/metering.ts).
 */
export type JobHandler = (job: ClaimedJob, signal: AbortSignal) => Promise<void | 'skipped'>;

/** One job kind's backlog, as the job queue reports it. */
export interface QueueKindStats {
  kind: string;
  /** Waiting jobs, due or scheduled later. */
  queued: number;
  /** Waiting jobs whose time has come. */
  due: number;
  running: number;
  /** How long the oldest due job has waited past its time, in seconds (0 when none is due). */
  lagSeconds: number;
}

export interface QueueStats {
  kinds: QueueKindStats[];
  /** Worker processes that reported in within a lease. */
  workersAlive: number;
}

export interface JobQueue {
  enqueue(spec: JobSpec): Promise<string>;
  enqueueMany(specs: JobSpec[]): Promise<string[]>;
  /** Registers the handler of a kind; only processes that run workers claim jobs. */
  handle(kind: string, handler: JobHandler, options?: JobHandlerOptions): void;
  /** Cancels queued (unclaimed) jobs of a group; returns how many. */
  cancelGroup(group: string): Promise<number>;
  start(): void;
  /** Graceful: stops claiming, lets running handlers finish (or releases them at the deadline). */
  stop(deadlineMs?: number): Promise<void>;
  /** The backlog of every kind, and the worker processes alive (in any process). */
  stats(): Promise<QueueStats>;
}

/** An outbound notification (`crawl.completed`, `crawl.failed`, `batch.completed`, …). */
/** What a delivery is for, so its outcome can be reported back (a watch shows its targets' outcomes). */
export interface DeliveryOrigin {
  /** The listener's name (`EventBus.onOutcome`), e.g. `watch`. */
  kind: string;
  subject: string;
}

/** One delivery attempt's result, as the delivery log records it. */
export interface DeliveryReport {
  origin: DeliveryOrigin;
  url: string;
  outcome: 'delivered' | 'retrying' | 'failed' | 'disabled';
  error: string | null;
  attempt: number;
  at: string;
}

export interface OutboundEvent {
  type: string;
  workspace: string;
  /** The event's payload fields (documented per event in OpenAPI). */
  data: Record<string, unknown>;
  /** An extra receiver for this one event, e.g. a crawl's `webhook_url`. */
  url?: string;
  /**
   * The data is the whole body, without the `{type, timestamp, data}` envelope: events whose payload
   * the interface fixes field by field (`watch.changed`: `{event, watch_id, …}`).
   */
  bare?: boolean;
  /** Reports the outcome of the delivery to `url` (registrations have their own log). */
  origin?: DeliveryOrigin;
}

/** One notification to one receiver, its body already rendered in a wire format's shape (a run's own webhook). */
export interface DirectDelivery {
  workspace: string;
  event: string;
  /** An http(s) receiver, or `mailto:address` (the body is a `MailContent`, sent by the Mailer). */
  url: string;
  body: string;
  /** The receiver's own headers, sent with every attempt. */
  headers: Record<string, string>;
  /**
   * `standard`: Standard Webhooks headers signed with `webhooks.signingSecret`, as an event's `url` gets;
   * `firecrawl`: `X-Firecrawl-Signature: sha256=<hex HMAC of the body>` with `webhooks.hmacSecret`;
   * `none`: a chat platform's own endpoint, which takes no signature (its URL holds the secret), or e-mail.
   */
  signature: 'standard' | 'firecrawl' | 'none';
  origin?: DeliveryOrigin;
}

/** Delivers events to the workspace's registered webhooks (and `url`), as signed, retried jobs. */
export interface EventBus {
  emit(event: OutboundEvent): Promise<void>;
  /** The same retried, guarded delivery for a body a wire format rendered, to its one receiver. */
  deliver(delivery: DirectDelivery): Promise<void>;
  /** Every attempt of a delivery with this origin kind is reported to `listener` (in the process that made it). */
  onOutcome(kind: string, listener: (report: DeliveryReport) => Promise<void>): void;
}

/** An e-mail's content; the recipient is the delivery's `mailto:` address. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail through the configured SMTP server (`[notify.smtp]`). */
export interface Mailer {
  /** Null when e-mail can be sent; otherwise which setting is missing. */
  unavailableReason(): string | null;
  /** Rejects with `permanent: true` on the error when retrying cannot help (an address the server refuses). */
  send(to: string, mail: MailContent, signal: AbortSignal): Promise<void>;
}

/**
 * A connection of a rendered page that did not happen: refused by the SSRF guard, or failed on the
 * network. `url` is the full URL for plain HTTP, `https://host:port` for tunnels (TLS, WebSockets).
 */
export interface BrowserRequestFailure {
  url: string;
  reason: string;
  /** True when the SSRF guard refused it. */
  refused: boolean;
  /**
   * With a refusal in self-hosted mode: the setting that allows it. The page's own failure ends
   * with it; the warning listing refused sub-requests leaves it out.
   */
  hint?: string;
  /** Set when the guard proxy cut the response at a render limit (`browser.maxResponseBytes`): the page itself answers 422. */
  limit?: boolean;
}

/** What a job gets from the browser pool: a page in a fresh context of its own. */
export interface BrowserSession {
  page: Page;
  /** Connections of the page that were refused or failed, in order (empty when private networks are allowed). */
  readonly failures: readonly BrowserRequestFailure[];
}

export interface BrowserJobOptions {
  /** Playwright context options: viewport, user agent, mobile emulation. */
  context?: BrowserContextOptions;
  /** Aborting it (the job's deadline or a client gone) closes the context and ends the work. */
  signal?: AbortSignal;
  /** Limit for the whole use of the page; default `browser.jobTimeoutMs`. */
  timeoutMs?: number;
  /** As for HTTP requests: `"none"`, a pool's name, or unset for the default proxy. */
  proxy?: string;
  /** The URL the job opens: a sticky pool keeps one proxy per its host. */
  target?: string;
}

export interface BrowserPoolStats {
  /** Process id of the browser serving new jobs, when one runs. */
  pid: number | null;
  launches: number;
  pagesServed: number;
  activeContexts: number;
  /** Contexts open in the serving browser: the jobs' plus the warm spare. */
  openContexts: number;
  waiting: number;
}

/**
 * One Chromium shared by all jobs: a bounded number of concurrent contexts, a fresh context per
 * job, the SSRF guard on every connection a page opens, relaunch after a crash and after
 * `browser.recycleAfterPages` pages. Launches lazily, so a missing Chromium fails only the jobs that need it.
 */
export interface BrowserPool {
  /** Null when Chromium can run; otherwise what is missing and how to install it. */
  unavailableReason(): string | null;
  withPage<T>(options: BrowserJobOptions, work: (session: BrowserSession) => Promise<T>): Promise<T>;
  stats(): BrowserPoolStats;
  close(): Promise<void>;
}
