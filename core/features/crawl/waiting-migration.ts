/**
 * Migration `crawl.0004_waiting`: links found in scope while a crawl's page budget was spent wait
 * in the frontier (state `waiting`) instead of being forgotten, so a slot given back later (a page
 * that redirected onto a known URL or out of scope) is filled with the next of them (record.ts).
 * `crawls.waiting` counts them, which bounds them without counting rows on every page.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const crawlWaitingMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('crawls')
      .addColumn('waiting', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The next waiting links to admit: shallowest first.
    await db.schema.createIndex('crawl_urls_state').ifNotExists().on('crawl_urls').columns(['crawl_id', 'state', 'depth']).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('crawl_urls_state').ifExists().execute();
    await db.schema.alterTable('crawls').dropColumn('waiting').execute();
  },
};
