/**
 * Migration `crawl.0002_hosts`: per-host politeness shared by worker processes on Postgres
 * (shared-gate.ts): a host's next allowed fetch (`crawl_hosts`) and its fetches in progress
 * (`crawl_host_slots`, each with a lease). Created on SQLite too, where one process gates itself.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const crawlHostsMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('crawl_hosts')
      .ifNotExists()
      .addColumn('host', 'text', (c) => c.primaryKey())
      .addColumn('next_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('crawl_host_slots')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('until', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('crawl_host_slots_host').ifNotExists().on('crawl_host_slots').columns(['host', 'until']).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('crawl_host_slots').ifExists().execute();
    await db.schema.dropTable('crawl_hosts').ifExists().execute();
  },
};
