/**
 * Migration `watch.0002_filters`: per-watch filters and conditions, the seen-lines memory of
 * `only_new_lines`, and on snapshots the notification decision (`notified`, `reason`), the word
 * diff excerpt and what the check observed. Defaults keep older watches behaving as they did;
 * older `changed` snapshots were notified, and say so.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { IGNORE_PATTERNS } from '../diff/normalise.ts';

type AnyDb = Kysely<any>;

const WATCH_COLUMNS: Array<[string, 'text' | 'integer', string | number]> = [
  ['include_selectors', 'text', '[]'],
  ['ignore_patterns', 'text', JSON.stringify(IGNORE_PATTERNS)],
  ['trigger_text', 'text', '[]'],
  ['block_text', 'text', '[]'],
  ['only_new_lines', 'integer', 0],
  ['changes', 'text', 'any'],
  ['conditions', 'text', '[]'],
  ['restock', 'integer', 0],
  ['tags', 'text', '[]'],
  ['seen_lines', 'text', '[]'],
  // What the last snapshot said: `new` (none yet, or the first), `changed` (it notified) or `unchanged`.
  ['last_state', 'text', 'new'],
];

export const watchFiltersMigration: Migration = {
  async up(db: AnyDb) {
    for (const [name, type, value] of WATCH_COLUMNS) {
      await db.schema
        .alterTable('watches')
        .addColumn(name, type, (c) => c.notNull().defaultTo(value))
        .execute();
    }
    await db.schema
      .alterTable('watch_snapshots')
      .addColumn('notified', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    for (const name of ['reason', 'excerpt', 'observed']) await db.schema.alterTable('watch_snapshots').addColumn(name, 'text').execute();
    await db.updateTable('watch_snapshots').set({ notified: 1, reason: 'changed' }).where('status', '=', 'changed').execute();
    await db.updateTable('watches').set({ last_state: 'unchanged' }).where('last_checked_at', 'is not', null).execute();
    await db.updateTable('watches').set({ last_state: 'changed' }).whereRef('last_changed_at', '=', 'last_checked_at').execute();
  },
  async down(db: AnyDb) {
    for (const name of ['notified', 'reason', 'excerpt', 'observed'])
      await db.schema.alterTable('watch_snapshots').dropColumn(name).execute();
    for (const [name] of WATCH_COLUMNS) await db.schema.alterTable('watches').dropColumn(name).execute();
  },
};
