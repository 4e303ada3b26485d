/**
 * How long stored outputs are kept (`results.retentionDays`): the `results.prune` job deletes rows
 * older than the retention in bounded chunks (one transaction each), on the shared schedule whose
 * one subject migration `results.0001_retention` adds with the index the prune reads by. Rows are
 * deleted whatever wrote them (the scrape cache, crawl pages' copies, maps, billed answers): the
 * results table is one store with one age limit.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Logger } from 'pino';
import type { JobHandler } from '../../services.ts';
import type { Database } from '../../storage/schema.ts';
import { DEFAULT_WORKSPACE } from '../../storage/workspaces.ts';

export const RESULTS_PRUNE_JOB = 'results.prune';
const PRUNE_SUBJECT = 'results.retention';
/** Hourly: rows outlive the retention by at most an hour. */
const PRUNE_INTERVAL_SECONDS = 3600;
const DAY_MS = 86_400_000;
/** Rows deleted per statement (each its own transaction), so a large backlog never holds a long one. */
const ROWS_PER_STATEMENT = 1000;

/** Outputs created before this (ISO, as `created_at` is stored) are expired; null when they are kept forever. */
export function resultsExpireBefore(retentionDays: number, now = Date.now()): string | null {
  return retentionDays === 0 ? null : new Date(now - retentionDays * DAY_MS).toISOString();
}

/** Deletes every output older than the retention, chunk by chunk, until done or `signal` aborts; rows deleted. */
export async function pruneResults(
  db: Kysely<Database>,
  retentionDays: number,
  options: { now?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const before = resultsExpireBefore(retentionDays, options.now);
  if (before === null) return 0;
  let total = 0;
  while (!options.signal?.aborted) {
    const chunk = db.selectFrom('results').select('id').where('created_at', '<', before).limit(ROWS_PER_STATEMENT);
    const deleted = Number((await db.deleteFrom('results').where('id', 'in', chunk).executeTakeFirst()).numDeletedRows);
    total += deleted;
    if (deleted < ROWS_PER_STATEMENT) break;
  }
  return total;
}

/** The `results.prune` job: one slot of the schedule. */
export function resultsPruneJob(db: Kysely<Database>, retentionDays: number, logger: Logger): JobHandler {
  return async (_job, signal) => {
    const deleted = await pruneResults(db, retentionDays, { signal });
    if (deleted > 0) logger.info({ deleted, retentionDays }, 'expired results deleted');
  };
}

// Migrations see the database as it was when they were written.
type AnyDb = Kysely<any>;

export const resultsRetentionMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex('results_created').ifNotExists().on('results').column('created_at').execute();
    const now = new Date().toISOString();
    await db
      .insertInto('schedules')
      .values({
        kind: RESULTS_PRUNE_JOB,
        subject_id: PRUNE_SUBJECT,
        workspace_id: DEFAULT_WORKSPACE,
        interval_seconds: PRUNE_INTERVAL_SECONDS,
        next_due_at: now,
        active: 1,
        last_enqueued_at: null,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['kind', 'subject_id']).doNothing())
      .execute();
  },
  async down(db: AnyDb) {
    await db.deleteFrom('schedules').where('kind', '=', RESULTS_PRUNE_JOB).execute();
    await db.schema.dropIndex('results_created').ifExists().execute();
  },
};
