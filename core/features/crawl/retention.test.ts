/**
 * The retention of finished crawls and batches, on SQLite and (with TEST_DATABASE_URL) Postgres:
 * `expiresAt` is the end plus the retention exactly, a run past it is pruned with its frontier
 * rows and jobs (in bounded chunks, however large), a run within it and an unfinished run are
 * never touched, 0 keeps everything, and migration crawl.0003_retention backfills end times and
 * puts the prune on the shared schedule. Time is driven through the rows' end times.
 */
import { afterEach, beforeEach, describe, expect, test, setDefaultTimeout } from 'bun:test';
import type { Storage } from '../../services.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { insertJobs, type Executor } from '../../jobs/store.ts';
import type { JobSpec } from '../../services.ts';
import { crawlConfigSchema } from './config.ts';
import { crawlRetentionMigration } from './retention-migration.ts';
import { expiresAt, isExpired, pruneExpired, PRUNE_JOB, PRUNE_SUBJECT, withExpiry } from './retention.ts';
import type { RunKind, RunRow } from './rows.ts';
import { createCrawlStore, type CrawlStore } from './store.ts';
import type { CrawlDb } from './tables.ts';
import { crawlUrl } from './urls.ts';

setDefaultTimeout(60_000);

const HOUR = 3_600_000;
const T = Date.parse('2026-03-01T12:00:00.000Z');
const enqueue = (db: Executor, specs: JobSpec[]) => insertJobs(db, specs, 3);
const timed = (status: RunRow['status'], completedAt: string | null) => ({ status, completedAt, updatedAt: '2026-03-01T11:00:00.000Z' });

test('the default retention is 24 h, and 0 is allowed (keep forever)', () => {
  expect(crawlConfigSchema.parse({}).retentionHours).toBe(24);
  expect(crawlConfigSchema.parse({ retentionHours: 0 }).retentionHours).toBe(0);
  expect(crawlConfigSchema.safeParse({ retentionHours: -1 }).success).toBe(false);
  expect(crawlConfigSchema.safeParse({ retentionHours: 1.5 }).success).toBe(false);
});

test('a finished run expires exactly its retention after it ended; a running one not before now plus the retention', () => {
  const ended = timed('completed', new Date(T).toISOString());
  expect(expiresAt(ended, 24, T + 5 * HOUR)).toBe('2026-03-02T12:00:00.000Z');
  expect(expiresAt(timed('cancelled', '2026-03-01T12:00:00.123Z'), 1)).toBe('2026-03-01T13:00:00.123Z');
  expect(isExpired(ended, 24, T + 24 * HOUR - 1)).toBe(false);
  expect(isExpired(ended, 24, T + 24 * HOUR)).toBe(true);
  // A row ended by older code without completed_at ended at its last change.
  expect(expiresAt(timed('failed', null), 2)).toBe('2026-03-01T13:00:00.000Z');
  for (const status of ['queued', 'scraping'] as const) {
    expect(expiresAt(timed(status, null), 24, T)).toBe('2026-03-02T12:00:00.000Z');
    expect(isExpired(timed(status, null), 24, T + 1000 * HOUR)).toBe(false);
  }
  expect(expiresAt(ended, 0)).toBeNull();
  expect(isExpired(ended, 0, T + 1_000_000 * HOUR)).toBe(false);
});

for (const database of testDatabases()) {
  describe(`crawl retention on ${database.name}`, () => {
    let storage: Storage;
    let db: CrawlDb;
    let store: CrawlStore;

    beforeEach(async () => {
      storage = await database.open();
      db = storage.db.withTables();
      store = createCrawlStore(db);
    });
    afterEach(() => storage.close());

    /** A run with `pages` frontier rows and their queued jobs, as the service creates it. */
    const start = (pages = 3, kind: RunKind = 'crawl') => {
      const seeds = Array.from({ length: pages }, (_, i) => crawlUrl(`http://a.site.test/p${i}`)!);
      return store.create(
        {
          id: crypto.randomUUID(),
          workspace: 'w',
          kind,
          url: kind === 'crawl' ? seeds[0]!.url : null,
          request: {},
          scopeHosts: ['a.site.test'],
          retryOf: null,
          seeds,
        },
        enqueue,
        3,
      );
    };
    /** Ends a run `agoMs` before now, as recordPage, fail or cancel would have. */
    const end = async (run: RunRow, agoMs: number, status: RunRow['status'] = 'completed') => {
      await db
        .updateTable('crawls')
        .set({ status, completed_at: new Date(Date.now() - agoMs).toISOString() })
        .where('id', '=', run.id)
        .execute();
      return (await store.byId(run.id))!;
    };
    const rows = async (id: string) => ({
      run: (await db.selectFrom('crawls').select('id').where('id', '=', id).execute()).length,
      pages: (await db.selectFrom('crawl_urls').select('url_hash').where('crawl_id', '=', id).execute()).length,
      jobs: (await db.selectFrom('jobs').select('id').where('group_id', '=', id).execute()).length,
    });

    test('a run past its retention goes with its pages and jobs; one within it stays', async () => {
      const old = await end(await start(3), 25 * HOUR);
      const cancelled = await end(await start(2, 'batch'), 30 * HOUR, 'cancelled');
      const recent = await end(await start(3), 23 * HOUR);
      // A page job that gave up stays in the queue's table as failed: it goes with its run.
      await db.updateTable('jobs').set({ status: 'failed' }).where('group_id', '=', old.id).execute();
      expect(await rows(old.id)).toEqual({ run: 1, pages: 3, jobs: 3 });

      expect(await pruneExpired(db, 24)).toEqual({ runs: 2, pages: 5 });
      expect(await rows(old.id)).toEqual({ run: 0, pages: 0, jobs: 0 });
      expect(await rows(cancelled.id)).toEqual({ run: 0, pages: 0, jobs: 0 });
      expect(await rows(recent.id)).toEqual({ run: 1, pages: 3, jobs: 3 });
      // Once the recent one's hour has come too, it goes.
      expect(await pruneExpired(db, 24, { now: Date.now() + 2 * HOUR })).toEqual({ runs: 1, pages: 3 });
      expect(await rows(recent.id)).toEqual({ run: 0, pages: 0, jobs: 0 });
    });

    test('an unfinished run is never pruned, however old', async () => {
      const ancient = new Date(Date.now() - 1000 * HOUR).toISOString();
      const queued = await start(2);
      const scraping = await start(2, 'batch');
      await db.updateTable('crawls').set({ status: 'scraping' }).where('id', '=', scraping.id).execute();
      await db.updateTable('crawls').set({ created_at: ancient, updated_at: ancient }).execute();
      expect(await pruneExpired(db, 1, { now: Date.now() + 1000 * HOUR })).toEqual({ runs: 0, pages: 0 });
      expect(await rows(queued.id)).toEqual({ run: 1, pages: 2, jobs: 2 });
      expect(await rows(scraping.id)).toEqual({ run: 1, pages: 2, jobs: 2 });
    });

    test('retention 0 keeps every finished run', async () => {
      const run = await end(await start(2), 100_000 * HOUR);
      expect(await pruneExpired(db, 0)).toEqual({ runs: 0, pages: 0 });
      expect(await rows(run.id)).toEqual({ run: 1, pages: 2, jobs: 2 });
      expect(withExpiry(run, 0).expiresAt).toBeNull();
    });

    test('large runs and many runs are deleted chunk by chunk, to the last row', async () => {
      const big = await end(await start(2_345), 48 * HOUR);
      const many = await Promise.all(Array.from({ length: 45 }, async () => end(await start(1, 'batch'), 48 * HOUR)));
      expect(await pruneExpired(db, 24)).toEqual({ runs: 46, pages: 2_345 + 45 });
      expect(await rows(big.id)).toEqual({ run: 0, pages: 0, jobs: 0 });
      expect(
        await db
          .selectFrom('crawls')
          .select('id')
          .where(
            'id',
            'in',
            many.map((r) => r.id),
          )
          .execute(),
      ).toEqual([]);
    });

    test('an aborted prune stops between runs and the next one finishes the work', async () => {
      const runs = await Promise.all([1, 2, 3].map(async () => end(await start(1), 48 * HOUR)));
      const stop = new AbortController();
      stop.abort();
      expect(await pruneExpired(db, 24, { signal: stop.signal })).toEqual({ runs: 0, pages: 0 });
      expect(await pruneExpired(db, 24)).toEqual({ runs: 3, pages: 3 });
      for (const run of runs) expect(await rows(run.id)).toEqual({ run: 0, pages: 0, jobs: 0 });
    });

    test('the migration gives finished rows without an end time one, and puts the prune on the schedule', async () => {
      const schedule = await storage.db.selectFrom('schedules').selectAll().where('kind', '=', PRUNE_JOB).execute();
      expect(schedule).toMatchObject([{ subject_id: PRUNE_SUBJECT, interval_seconds: 3600, active: 1 }]);
      const legacy = await start(1);
      await db
        .updateTable('crawls')
        .set({ status: 'failed', completed_at: null, updated_at: '2026-01-01T00:00:00.000Z' })
        .where('id', '=', legacy.id)
        .execute();
      const running = await start(1);
      // Safe to run again (SQLite cannot roll a half-done migration back), and a no-op for the schedule.
      await crawlRetentionMigration.up(storage.db);
      expect((await store.byId(legacy.id))!.completedAt).toBe('2026-01-01T00:00:00.000Z');
      expect((await store.byId(running.id))!.completedAt).toBeNull();
      expect(await storage.db.selectFrom('schedules').select('subject_id').where('kind', '=', PRUNE_JOB).execute()).toHaveLength(1);
      expect(await pruneExpired(db, 24)).toEqual({ runs: 1, pages: 1 });
    });
  });
}
