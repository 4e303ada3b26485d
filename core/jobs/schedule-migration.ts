/**
 * Migration `0005_schedules`: the shared schedule (`schedules`), one row per recurring subject
 * (a watch, a social monitor) keyed by the job kind its checks run as. The scheduler
 * (scheduler.ts) claims rows whose `next_due_at` has come and enqueues one job per due slot.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

export const schedulesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('schedules')
      .ifNotExists()
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('interval_seconds', 'integer', (c) => c.notNull())
      .addColumn('next_due_at', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('last_enqueued_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('schedules_pk', ['kind', 'subject_id'])
      .execute();
    // The claim: active rows of a kind, earliest due first.
    await db.schema.createIndex('schedules_due').ifNotExists().on('schedules').columns(['kind', 'active', 'next_due_at']).execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('schedules').ifExists().execute();
  },
};
