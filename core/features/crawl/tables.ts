/** Table types of crawls and batches; the migration that creates them is migration.ts. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';

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
  /** In-scope links found beyond the page budget, kept to fill slots given back (`waiting` frontier rows). */
  waiting: number;
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
  /**
   * `queued`, `done`, `alias` (a redirect target), `duplicate` (redirected onto a known URL),
   * `out_of_scope` (redirected out of the crawl's scope) or `waiting` (found beyond the budget).
   */
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

/** Postgres: a host's politeness shared by every worker process (shared-gate.ts). */
export interface CrawlHostsTable {
  host: string;
  /** Earliest start of the host's next fetch, ms since the epoch by the database's clock. */
  next_at: number | string;
}

/** Postgres: a fetch of a host in progress in some process, until it releases or `until` passes. */
export interface CrawlHostSlotsTable {
  id: string;
  host: string;
  until: number | string;
}

// A type alias, not an interface: kysely's withTables needs the implicit index signature.
export type CrawlTables = {
  crawls: CrawlsTable;
  crawl_urls: CrawlUrlsTable;
  crawl_hosts: CrawlHostsTable;
  crawl_host_slots: CrawlHostSlotsTable;
};

/** Core's tables (the job queue enqueues inside crawl transactions) plus the crawl's own. */
export type CrawlDatabase = Database & CrawlTables;
export type CrawlDb = Kysely<CrawlDatabase>;
export type CrawlExecutor = CrawlDb | Transaction<CrawlDatabase>;
