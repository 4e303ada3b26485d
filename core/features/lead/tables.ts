/** Table types of lead batches; the migration that creates them is migration.ts. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';

/** One lead batch: its request and counters. */
export interface LeadBatchesTable {
  id: string;
  workspace_id: string;
  /** `queued`, `processing`, `completed`. */
  status: string;
  total: number;
  completed: number;
  failed: number;
  /** JSON text: `{noCache, webhookUrl?}`. */
  request: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** One URL of a batch and, once done, its lead or error. */
export interface LeadBatchItemsTable {
  batch_id: string;
  /** Position in the request's `urls`. */
  position: number;
  url: string;
  /** `queued`, `completed`, `failed`. */
  status: string;
  /** JSON text of the lead. */
  lead: string | null;
  error: string | null;
  finished_at: string | null;
}

export type LeadTables = {
  lead_batches: LeadBatchesTable;
  lead_batch_items: LeadBatchItemsTable;
};

export type LeadDatabase = Database & LeadTables;
export type LeadDb = Kysely<LeadDatabase>;
export type LeadExecutor = LeadDb | Transaction<LeadDatabase>;
