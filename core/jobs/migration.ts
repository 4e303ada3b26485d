/**
 * Migration `0002_jobs_crawls`: the job queue (`jobs`), crawl and batch runs (`crawls`) and their
 * frontier, which doubles as the result list (`crawl_urls`). Portable column types only, like
 * 0001: JSON as text, timestamps as ISO strings, counters as integers.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

export const jobsCrawlsMigration: Migration = {
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

    await db.schema
      .createTable('crawls')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('url', 'text')
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('scope_hosts', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('admitted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('retry_of', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema.createIndex('crawls_history').ifNotExists().on('crawls').columns(['workspace_id', 'kind', 'created_at']).execute();

    // One row per URL the run has seen: queued and finished pages (with their result), redirect
    // targets (`alias`) and pages dropped as duplicates of another page's redirect target.
    await db.schema
      .createTable('crawl_urls')
      .ifNotExists()
      .addColumn('crawl_id', 'text', (c) => c.notNull())
      .addColumn('url_hash', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('depth', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer')
      .addColumn('outcome', 'text')
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('finished_at', 'text')
      .addPrimaryKeyConstraint('crawl_urls_pk', ['crawl_id', 'url_hash'])
      .execute();
    // Results in completion order: pagination and the SSE stream's resume point.
    await db.schema.createIndex('crawl_urls_seq').ifNotExists().on('crawl_urls').columns(['crawl_id', 'seq']).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('crawl_urls').ifExists().execute();
    await db.schema.dropTable('crawls').ifExists().execute();
    await db.schema.dropTable('jobs').ifExists().execute();
  },
};
