/**
 * Migration `0003_webhooks`: the webhook registry and its delivery log, declared by the webhooks
 * feature (index.ts) under the name it shipped with.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

export const webhooksMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('webhooks')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Listing and event fan-out both read one workspace's webhooks.
    await db.schema.createIndex('webhooks_workspace').ifNotExists().on('webhooks').columns(['workspace_id', 'created_at']).execute();

    // No foreign key to webhooks: the log of a deleted webhook is dropped by the store, and rows
    // for a crawl's webhook_url have no registration at all.
    await db.schema
      .createTable('webhook_deliveries')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_webhook')
      .ifNotExists()
      .on('webhook_deliveries')
      .columns(['webhook_id', 'created_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('webhook_deliveries').ifExists().execute();
    await db.schema.dropTable('webhooks').ifExists().execute();
  },
};
