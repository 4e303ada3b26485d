/**
 * Migration `0002_jobs_crawls`: the job queue (`jobs`). Databases migrated before feature modules
 * existed ran it under this name when it also created the crawl tables; the name stays so kysely
 * finds every executed migration, and the crawl feature now creates its tables itself
 * (`crawl.0001_tables`, a no-op on those databases). Portable column types only, like 0001.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

export const jobsMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('jobs')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('group_id', 'text')
      .addColumn('concurrency_key', 'text')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('run_at', 'text', (c) => c.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // The claim: queued jobs of one kind, most urgent first, that are due.
    await db.schema.createIndex('jobs_claim').ifNotExists().on('jobs').columns(['kind', 'status', 'priority', 'run_at']).execute();
    // Reclaiming expired leases scans running jobs by lease end.
    await db.schema.createIndex('jobs_lease').ifNotExists().on('jobs').columns(['status', 'locked_until']).execute();
    await db.schema.createIndex('jobs_group').ifNotExists().on('jobs').columns(['group_id', 'status']).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('jobs').ifExists().execute();
  },
};
