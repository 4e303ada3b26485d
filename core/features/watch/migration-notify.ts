/**
 * Migration `watch.0003_notify`: a watch's `notify` targets, and the last delivery outcome per
 * target (one row per watch and target, replaced by each attempt) that `notify_status` shows.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

type AnyDb = Kysely<any>;

export const watchNotifyMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('watches')
      .addColumn('notify', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .createTable('watch_notify_status')
      .ifNotExists()
      .addColumn('watch_id', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('watch_notify_status_pk', ['watch_id', 'target'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('watch_notify_status').ifExists().execute();
    await db.schema.alterTable('watches').dropColumn('notify').execute();
  },
};
