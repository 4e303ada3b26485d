/** Table types of the accounts feature (usage log, credit grants, rate-limit windows, credit leases); migration.ts creates them. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';

/** One billable call (or asynchronous run) of a workspace. */
export interface UsageLogTable {
  id: string;
  workspace_id: string;
  /** The endpoint as the cost table knows it: `scrape`, `crawl`, `batch`, `map`, … */
  endpoint: string;
  url: string | null;
  /** Credits the run cost so far (a crawl's grow as its pages are scraped); bigint. */
  credits: number | string;
  /** `running` (an asynchronous run's row before its call was recorded), `succeeded` or `failed`. */
  status: string;
  error: string | null;
  duration_ms: number;
  /** The stored result the call produced (results.id), when it produced one. */
  result_id: string | null;
  /** The crawl or batch the call started; unique, so the run's page charges find this row. */
  run_id: string | null;
  created_at: string;
  finished_at: string | null;
}

/** Credits added by an operator (admin API, CLI): the ledger's other side. */
export interface CreditGrantsTable {
  id: string;
  workspace_id: string;
  credits: number | string;
  note: string | null;
  created_at: string;
}

/** Requests of one workspace in one minute (`window_start` = minutes since the epoch). */
export interface RateLimitsTable {
  workspace_id: string;
  window_start: number | string;
  count: number;
}

/** Credits one API process took from a workspace's balance and has not logged as spent or given back (purse.ts). */
export interface CreditLeasesTable {
  /** `<process id>/<workspace id>`. */
  id: string;
  workspace_id: string;
  held: number | string;
  /** Epoch ms; renewed while the process lives, given back by any process once past. */
  expires_at: number | string;
}

// A type alias, not an interface: kysely's withTables needs the implicit index signature.
export type AccountTables = {
  usage_log: UsageLogTable;
  credit_grants: CreditGrantsTable;
  rate_limits: RateLimitsTable;
  credit_leases: CreditLeasesTable;
};

export type AccountsDb = Kysely<Database & AccountTables>;
export type AccountsExecutor = AccountsDb | Transaction<Database & AccountTables>;
