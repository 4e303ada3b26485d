/**
 * Kysely table typings for Trawl's database. The same shapes hold on SQLite and Postgres because
 * the migrations only use portable column types: JSON is stored as text, timestamps as ISO-8601
 * strings (which sort lexicographically in time order), booleans as 0/1 integers. Read rows
 * through the helpers in values.ts, which absorb what still differs between the drivers.
 */

export interface WorkspacesTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  /** sha256 hex of the key; the plain key is never stored. */
  key_hash: string;
  created_at: string;
}

export interface ResultsTable {
  id: string;
  workspace_id: string;
  /** The producing endpoint, e.g. `scrape`. */
  endpoint: string;
  url: string;
  /**
   * sha256 hex of `url`. The lookup index keys on this instead of `url` because a Postgres btree
   * entry must fit in a third of a page (~2.7 KB) and URLs have no length limit.
   */
  url_hash: string;
  options_hash: string;
  /** JSON text of the result body. */
  output: string;
  created_at: string;
}

/** A registered webhook (POST /v1/webhooks). */
export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON text: the subscribed event types. */
  events: string;
  /** The signing secret, sealed by core/features/webhooks/signing.ts (recoverable: deliveries sign with it). */
  secret: string;
  /** 0/1; a 410 answer sets it to 0. */
  active: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One delivery attempt of one message to one receiver: the delivery log. */
export interface WebhookDeliveriesTable {
  id: string;
  /** Null for a receiver given per job (a crawl's webhook_url). */
  webhook_id: string | null;
  workspace_id: string;
  message_id: string;
  event: string;
  url: string;
  attempt: number;
  /** `delivered`, `retrying`, `failed` (given up) or `disabled` (410). */
  outcome: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  next_attempt_at: string | null;
  created_at: string;
}

/** A unit of asynchronous work (core/jobs): claimed by one worker at a time under a lease. */
export interface JobsTable {
  id: string;
  kind: string;
  workspace_id: string;
  group_id: string | null;
  /** Jobs sharing a key (a crawl page's host) are throttled together by their handler. */
  concurrency_key: string | null;
  /** JSON text of the handler's input. */
  payload: string;
  /** `queued`, `running` or `failed`; finished jobs are deleted. */
  status: string;
  /** Lower runs first (a crawl page's depth). */
  priority: number;
  /** Runs started so far, including the current one. */
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A crawl or a batch (core/features/crawl): its request, state and counters. */
export interface CrawlsTable {
  id: string;
  workspace_id: string;
  /** `crawl` or `batch`. */
  kind: string;
  /** Start URL of a crawl; null for a batch. */
  url: string | null;
  /** JSON text of the validated request, reused by retry. */
  request: string;
  /** JSON text: host names the crawl treats as its own (the start host and where it redirected). */
  scope_hosts: string;
  /** `queued`, `scraping`, `completed`, `failed`, `cancelled`. */
  status: string;
  /** URLs admitted to the run (never more than max_pages). */
  admitted: number;
  completed: number;
  failed: number;
  /** Sequence number of the last finished page. */
  seq: number;
  error: string | null;
  retry_of: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** The frontier and results of a run: one row per seen URL. */
export interface CrawlUrlsTable {
  crawl_id: string;
  /** sha256 of the normalised URL: the dedupe key. */
  url_hash: string;
  url: string;
  depth: number;
  /** `queued`, `done`, `alias` (a redirect target) or `duplicate`. */
  state: string;
  /** Completion order, set when the page finishes: pagination and SSE event ids. */
  seq: number | null;
  /** `completed` or `failed`. */
  outcome: string | null;
  /** JSON text of the page result. */
  result: string | null;
  error: string | null;
  finished_at: string | null;
}

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  results: ResultsTable;
  jobs: JobsTable;
  crawls: CrawlsTable;
  crawl_urls: CrawlUrlsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
