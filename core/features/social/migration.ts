/** Migration `social.0001_monitors`: the social monitors table. Portable column types only. */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const socialMonitorsMigration: Migration = {
  async up(db: AnyDb) {
    let table = db.schema
      .createTable('social_monitors')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey());
    for (const column of ['workspace_id', 'kind', 'target', 'name']) table = table.addColumn(column, 'text', (c) => c.notNull());
    for (const column of ['interval_minutes', 'active', 'include_retweets', 'include_replies', 'include_quotes', 'min_faves'])
      table = table.addColumn(column, 'integer', (c) => c.notNull());
    for (const column of ['webhook_url', 'keyword', 'lang', 'source_id', 'cursor', 'last_checked_at', 'last_matched_at', 'last_error'])
      table = table.addColumn(column, 'text');
    await table
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('social_monitors_workspace')
      .ifNotExists()
      .on('social_monitors')
      .columns(['workspace_id', 'created_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('social_monitors').ifExists().execute();
  },
};
