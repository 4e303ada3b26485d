/**
 * Migration `0006_job_workers`: worker processes report in (`job_workers`, one row per process,
 * its last report in `seen_at`), so /health and /metrics can count the workers alive in every
 * process; and a job remembers the request that started it (`jobs.request_id`) for its logs.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

export const jobWorkersMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('job_workers')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kinds', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .execute();
    try {
      await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
    } catch (err) {
      // Safe to run again (SQLite cannot roll DDL back): the column may be there from a run that failed later.
      if (!/duplicate column|already exists/i.test(String((err as Error).message))) throw err;
    }
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('job_workers').ifExists().execute();
    await db.schema.alterTable('jobs').dropColumn('request_id').execute();
  },
};
