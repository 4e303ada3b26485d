/**
 * Migration `crawl.0003_retention`: what deleting expired runs (retention.ts) needs — an index to
 * find runs by the time they ended, an end time on every finished run, and the prune's one subject
 * on the shared schedule, due at once so a database upgraded with old runs is pruned at the first tick.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { DEFAULT_WORKSPACE } from '../../storage/workspaces.ts';
import { PRUNE_INTERVAL_SECONDS, PRUNE_JOB, PRUNE_SUBJECT } from './retention.ts';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const crawlRetentionMigration: Migration = {
  async up(db: AnyDb) {
    // Rows ended by code that did not set `completed_at` on every end state ended at their last change.
    await db
      .updateTable('crawls')
      .set((eb) => ({ completed_at: eb.ref('updated_at') }))
      .where('completed_at', 'is', null)
      .where('status', 'in', ['completed', 'failed', 'cancelled'])
      .execute();
    await db.schema.createIndex('crawls_ended').ifNotExists().on('crawls').column('completed_at').execute();
    const now = new Date().toISOString();
    await db
      .insertInto('schedules')
      .values({
        kind: PRUNE_JOB,
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
    await db.deleteFrom('schedules').where('kind', '=', PRUNE_JOB).execute();
    await db.schema.dropIndex('crawls_ended').ifExists().execute();
  },
};
