// watch.0002_filters on a database with watches from before it: they keep behaving as they did
// (every preset on, no filter, `changes: any`), their state follows their last check, and their
// `changed` snapshots read as notified. Runs on SQLite and Postgres.
import { afterEach, describe, expect, test } from 'bun:test';
import type { Kysely } from 'kysely';
import type { Storage } from '../../services.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { watchFiltersMigration } from './migration-filters.ts';
import { createWatchStore } from './store.ts';
import type { WatchTables } from './tables.ts';

for (const database of testDatabases()) {
  describe(`${database.name}: watch.0002_filters`, () => {
    let storage: Storage;
    afterEach(() => storage.close());

    test('older watches and snapshots get defaults that keep their behaviour', async () => {
      storage = await database.open();
      const db = storage.db as Kysely<any>;
      await watchFiltersMigration.down!(db);
      const at = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
      const watch = (id: string, lastChanged: string | null) => ({
        id,
        workspace_id: 'default',
        url: `https://example.com/${id}`,
        name: id,
        interval_minutes: 60,
        webhook_url: null,
        active: 1,
        ignore_selectors: '[]',
        ignore_text: '["ad *"]',
        last_checked_at: at(30),
        last_changed_at: lastChanged,
        last_error: null,
        created_at: at(0),
        updated_at: at(0),
      });
      await db
        .insertInto('watches')
        .values([watch('changed', at(30)), watch('quiet', at(10))])
        .execute();
      const snapshot = (id: string, status: string, minute: number) => ({
        id,
        watch_id: 'changed',
        workspace_id: 'default',
        content_hash: 'h',
        word_count: 3,
        status,
        title: 'T',
        diff_summary: null,
        word_count_delta: 0,
        links_added: 0,
        links_removed: 0,
        content: '',
        due_at: null,
        checked_at: at(minute),
      });
      await db
        .insertInto('watch_snapshots')
        .values([snapshot('s1', 'initial', 0), snapshot('s2', 'same', 10), snapshot('s3', 'changed', 30)])
        .execute();

      await watchFiltersMigration.up(db);
      const store = createWatchStore(storage.db.withTables<WatchTables>());
      expect(await store.get('default', 'changed')).toMatchObject({
        ignoreText: ['ad *'],
        includeSelectors: [],
        ignorePatterns: ['clock', 'relative_time', 'counters', 'tokens'],
        triggerText: [],
        blockText: [],
        onlyNewLines: false,
        changes: 'any',
        conditions: [],
        restock: false,
        tags: [],
        lastState: 'changed',
      });
      expect((await store.get('default', 'quiet'))!.lastState).toBe('unchanged');
      const snapshots = await store.snapshots('changed', 10);
      expect(snapshots.map((s) => [s.id, s.notified, s.reason, s.excerpt, s.observed])).toEqual([
        ['s3', true, 'changed', null, null],
        ['s2', false, null, null, null],
        ['s1', false, null, null, null],
      ]);
      expect(await store.seenLines('changed')).toEqual([]);
    });
  });
}
