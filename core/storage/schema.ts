/**
 * Kysely table typings for Trawl's database. The same shapes hold on SQLite and Postgres because
 * the migrations only use portable column types: JSON is stored as text, timestamps as ISO-8601
 * strings (which sort lexicographically in time order), booleans as 0/1 integers. Read rows
 * through the helpers in values.ts, which absorb what still differs between the drivers.
 */
import type { Generated } from 'kysely';

export interface WorkspacesTable {
  id: string;
  name: string;
  /** `free`, `starter`, `growth`, `pro` or `scale` (cloud mode; migration 0004). */
  plan: Generated<string>;
  /** `active` or `lapsed`. */
  status: Generated<string>;
  /** The credit balance, never below 0 (a check constraint); bigint, so Postgres returns it as text. */
  credits: Generated<number | string>;
  /** Requests per minute for this workspace, over its plan's; null = the plan's. */
  rate_limit: number | null;
  created_at: string;
  updated_at: string | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  /** sha256 hex of the key; the plain key is never stored. */
  key_hash: string;
  /** A label for people (migration 0004). */
  name: string | null;
  /** The key's last characters, to tell keys apart in lists; null for keys registered by configuration. */
  suffix: string | null;
  /** Set when the key was revoked; a revoked key authenticates nothing. */
  revoked_at: string | null;
  created_at: string;
  /** `admin` (manages the workspace's keys, sees its billing) or `member` (calls the API only); migration accounts.0003_key_roles. */
  role: Generated<string>;
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
  /** The request that started the work (core/logger.ts), for the job's log lines. */
  request_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One recurring subject (a watch, a monitor) of the shared schedule (core/jobs/scheduler.ts). */
export interface SchedulesTable {
  /** The job kind each due slot is enqueued as (`watch.check`). */
  kind: string;
  /** The feature's row the schedule belongs to (a watch id). */
  subject_id: string;
  workspace_id: string;
  interval_seconds: number;
  /** The next slot; its job carries it as `due`, so a slot is checked once. */
  next_due_at: string;
  /** 0 = paused: not claimed. */
  active: number;
  last_enqueued_at: string | null;
  created_at: string;
}

/** A process running job workers; `seen_at` is renewed with its leases (core/jobs). */
export interface JobWorkersTable {
  id: string;
  /** JSON list of the job kinds it runs. */
  kinds: string;
  started_at: string;
  seen_at: string;
}

/** Core's tables. A feature owns its tables' types and widens its handle with `db.withTables<…>()`. */
export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  results: ResultsTable;
  jobs: JobsTable;
  schedules: SchedulesTable;
  job_workers: JobWorkersTable;
}
