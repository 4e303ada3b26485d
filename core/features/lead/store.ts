/**
 * Rows of lead batches: creation with every URL and its job in one transaction, reads scoped to
 * a workspace, and recording one URL's outcome. Recording starts by updating the batch row,
 * which locks it (Postgres row lock, SQLite's single writer), so the counters are exact and "the
 * batch is finished" is decided once, together with the job that announces it; an item already
 * recorded (a job run twice after a lapsed lease) is not counted again.
 */
import type { Selectable } from 'kysely';
import type { JobSpec } from '../../services.ts';
import { nowIso, readInt, readJson } from '../../storage/values.ts';
import type { Lead } from './merge.ts';
import type { LeadBatchesTable, LeadDb, LeadExecutor } from './tables.ts';

export const ITEM_JOB = 'lead.item';
export const NOTIFY_JOB = 'lead.notify';

export type BatchStatus = 'queued' | 'processing' | 'completed';

export interface LeadBatch {
  id: string;
  workspace: string;
  status: BatchStatus;
  total: number;
  completed: number;
  failed: number;
  noCache: boolean;
  webhookUrl?: string;
  createdAt: string;
  completedAt: string | null;
}

export interface LeadBatchItem {
  position: number;
  url: string;
  status: 'queued' | 'completed' | 'failed';
  lead: Lead | null;
  error: string | null;
}

function toBatch(row: Selectable<LeadBatchesTable>): LeadBatch {
  const request = readJson<{ noCache?: boolean; webhookUrl?: string }>(row.request);
  return {
    id: row.id,
    workspace: row.workspace_id,
    status: row.status as BatchStatus,
    total: readInt(row.total),
    completed: readInt(row.completed),
    failed: readInt(row.failed),
    noCache: request.noCache === true,
    ...(request.webhookUrl ? { webhookUrl: request.webhookUrl } : {}),
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

type InsertJobs = (db: LeadExecutor, specs: JobSpec[]) => Promise<unknown>;

export function createLeadStore(db: LeadDb) {
  return {
    async create(
      batch: { id: string; workspace: string; urls: string[]; noCache: boolean; webhookUrl?: string },
      insertJobs: InsertJobs,
      maxAttempts: number,
    ): Promise<LeadBatch> {
      const now = nowIso();
      const row: Selectable<LeadBatchesTable> = {
        id: batch.id,
        workspace_id: batch.workspace,
        status: 'queued',
        total: batch.urls.length,
        completed: 0,
        failed: 0,
        request: JSON.stringify({ noCache: batch.noCache, ...(batch.webhookUrl ? { webhookUrl: batch.webhookUrl } : {}) }),
        created_at: now,
        updated_at: now,
        completed_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('lead_batches').values(row).execute();
        await trx
          .insertInto('lead_batch_items')
          .values(
            batch.urls.map((url, position) => ({
              batch_id: batch.id,
              position,
              url,
              status: 'queued',
              lead: null,
              error: null,
              finished_at: null,
            })),
          )
          .execute();
        await insertJobs(
          trx,
          batch.urls.map((_, position) => ({
            kind: ITEM_JOB,
            workspace: batch.workspace,
            group: batch.id,
            maxAttempts,
            payload: { batch: batch.id, position },
          })),
        );
      });
      return toBatch(row);
    },

    async get(workspace: string, id: string): Promise<LeadBatch | null> {
      const row = await db
        .selectFrom('lead_batches')
        .selectAll()
        .where('id', '=', id)
        .where('workspace_id', '=', workspace)
        .executeTakeFirst();
      return row ? toBatch(row) : null;
    },

    /** For workers, which act on behalf of whichever workspace queued the job. */
    async byId(id: string): Promise<LeadBatch | null> {
      const row = await db.selectFrom('lead_batches').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toBatch(row) : null;
    },

    async items(batchId: string): Promise<LeadBatchItem[]> {
      const rows = await db.selectFrom('lead_batch_items').selectAll().where('batch_id', '=', batchId).orderBy('position').execute();
      return rows.map((row) => ({
        position: readInt(row.position),
        url: row.url,
        status: row.status as LeadBatchItem['status'],
        lead: row.lead === null ? null : readJson<Lead>(row.lead),
        error: row.error,
      }));
    },

    async item(batchId: string, position: number): Promise<{ url: string; status: string } | null> {
      return (
        (await db
          .selectFrom('lead_batch_items')
          .select(['url', 'status'])
          .where('batch_id', '=', batchId)
          .where('position', '=', position)
          .executeTakeFirst()) ?? null
      );
    },

    async markProcessing(id: string): Promise<void> {
      await db
        .updateTable('lead_batches')
        .set({ status: 'processing', updated_at: nowIso() })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
    },

    /** Records one URL's lead or error; the batch when this finished it, else null. */
    record(
      batchId: string,
      position: number,
      outcome: { lead: Lead } | { error: string },
      insertJobs: InsertJobs,
    ): Promise<LeadBatch | null> {
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const locked = await trx
          .updateTable('lead_batches')
          .set({ updated_at: now })
          .where('id', '=', batchId)
          .where('status', '!=', 'completed')
          .returningAll()
          .executeTakeFirst();
        if (!locked) return null;
        const done = 'lead' in outcome;
        const claimed = await trx
          .updateTable('lead_batch_items')
          .set({
            status: done ? 'completed' : 'failed',
            lead: done ? JSON.stringify(outcome.lead) : null,
            error: done ? null : outcome.error,
            finished_at: now,
          })
          .where('batch_id', '=', batchId)
          .where('position', '=', position)
          .where('status', '=', 'queued')
          .returning('position')
          .executeTakeFirst();
        if (!claimed) return null;
        const completed = readInt(locked.completed) + (done ? 1 : 0);
        const failed = readInt(locked.failed) + (done ? 0 : 1);
        const finished = completed + failed >= readInt(locked.total);
        const row = await trx
          .updateTable('lead_batches')
          .set({ completed, failed, status: finished ? 'completed' : 'processing', completed_at: finished ? now : null, updated_at: now })
          .where('id', '=', batchId)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (!finished) return null;
        await insertJobs(trx, [{ kind: NOTIFY_JOB, workspace: row.workspace_id, payload: { batch: batchId }, maxAttempts: 10 }]);
        return toBatch(row);
      });
    },
  };
}

export type LeadStore = ReturnType<typeof createLeadStore>;
