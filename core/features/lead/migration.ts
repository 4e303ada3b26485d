/** Migration `lead.0001_batches`: lead batches and their URLs with each one's lead or error. */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const leadBatchesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('lead_batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema
      .createTable('lead_batch_items')
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('lead', 'text')
      .addColumn('error', 'text')
      .addColumn('finished_at', 'text')
      .addPrimaryKeyConstraint('lead_batch_items_pk', ['batch_id', 'position'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('lead_batch_items').ifExists().execute();
    await db.schema.dropTable('lead_batches').ifExists().execute();
  },
};
