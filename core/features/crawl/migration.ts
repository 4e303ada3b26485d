/**
 * Migration `crawl.0001_tables`: crawl and batch runs (`crawls`) and their frontier, which doubles
 * as the result list (`crawl_urls`). Until feature modules existed these tables came with core's
 * `0002_jobs_crawls`, so databases from then already have them: every statement is `ifNotExists`.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const crawlTablesMigration: Migration = {
  async up(db: AnyDb) {
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
  },
};
