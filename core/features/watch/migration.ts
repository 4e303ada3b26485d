/** Migration `watch.0001_tables`: watches and their snapshot timeline. Portable column types only. */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const watchTablesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('watches')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('interval_minutes', 'integer', (c) => c.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('ignore_selectors', 'text', (c) => c.notNull())
      .addColumn('ignore_text', 'text', (c) => c.notNull())
      .addColumn('last_checked_at', 'text')
      .addColumn('last_changed_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('watches_workspace').ifNotExists().on('watches').columns(['workspace_id', 'created_at']).execute();

    await db.schema
      .createTable('watch_snapshots')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('watch_id', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('word_count', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('diff_summary', 'text')
      .addColumn('word_count_delta', 'integer', (c) => c.notNull())
      .addColumn('links_added', 'integer', (c) => c.notNull())
      .addColumn('links_removed', 'integer', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text')
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .execute();
    // The timeline, newest first.
    await db.schema
      .createIndex('watch_snapshots_timeline')
      .ifNotExists()
      .on('watch_snapshots')
      .columns(['watch_id', 'checked_at'])
      .execute();
    // One snapshot per schedule slot, whatever happens to the jobs (null slots are manual checks).
    await db.schema
      .createIndex('watch_snapshots_slot')
      .ifNotExists()
      .unique()
      .on('watch_snapshots')
      .columns(['watch_id', 'due_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('watch_snapshots').ifExists().execute();
    await db.schema.dropTable('watches').ifExists().execute();
  },
};
