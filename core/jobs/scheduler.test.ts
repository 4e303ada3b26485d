/**
 * The shared schedule on SQLite and (with TEST_DATABASE_URL) Postgres, with a fake clock: slots
 * come due at interval plus the subject's offset, each slot is enqueued once, missed slots after
 * downtime run once, paused subjects are not claimed, interval changes keep the phase, offsets
 * spread equal intervals, two schedulers claiming at once never enqueue a slot twice, and
 * start() claims what is overdue at once (restart catch-up).
 */
import { afterEach, beforeEach, describe, expect, test, setDefaultTimeout } from 'bun:test';
import pino from 'pino';
import type { Storage } from '../services.ts';
import { testDatabases } from '../../test/helpers/databases.ts';
import { jitterMs, nextSlot, Scheduler, type ScheduleConfig } from './scheduler.ts';
import { insertJobs } from './store.ts';

setDefaultTimeout(60_000);

const silent = pino({ level: 'silent' });
const config: ScheduleConfig = { scheduleTickSeconds: 1, scheduleJitterSeconds: 60, scheduleBatch: 50 };
const HOUR = 3600;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

test('offsets are stable, bounded by the setting and a tenth of the interval, and spread', () => {
  expect(jitterMs('a', 3600_000, 60)).toBe(jitterMs('a', 3600_000, 60));
  const offsets = Array.from({ length: 1000 }, (_, i) => jitterMs(`watch-${i}`, 3600_000, 60));
  expect(Math.max(...offsets)).toBeLessThan(60_000);
  expect(new Set(offsets.map((o) => Math.floor(o / 1000))).size).toBe(60);
  expect(jitterMs('a', 100_000, 60)).toBeLessThan(10_000);
  expect(jitterMs('a', 3600_000, 0)).toBe(0);
});

test('the next slot is one interval on, or one interval from now when slots were missed', () => {
  expect(nextSlot(T0, 60_000, T0 + 5_000, 7)).toBe(T0 + 60_000);
  expect(nextSlot(T0, 60_000, T0 + 600_000, 7)).toBe(T0 + 600_000 + 60_000 + 7);
});

for (const database of testDatabases()) {
  describe(`scheduler on ${database.name}`, () => {
    let storage: Storage;
    let clock = T0;
    const schedulers: Scheduler[] = [];
    const newScheduler = () => {
      const scheduler = new Scheduler(
        storage.db,
        storage.dialect,
        { insert: (db, specs) => insertJobs(db, specs, 3), poke() {} },
        config,
        silent,
        () => clock,
      );
      scheduler.register('test.check', { maxAttempts: 2 });
      schedulers.push(scheduler);
      return scheduler;
    };
    const jobs = () =>
      storage.db
        .selectFrom('jobs')
        .select(['kind', 'workspace_id', 'payload'])
        .orderBy('created_at')
        .orderBy('run_at')
        .execute()
        .then((rows) => rows.map((r) => ({ kind: r.kind, workspace: r.workspace_id, ...JSON.parse(r.payload) })));
    const row = (subject: string) =>
      storage.db.selectFrom('schedules').selectAll().where('subject_id', '=', subject).executeTakeFirstOrThrow();
    const put = (scheduler: Scheduler, subject: string, intervalSeconds = HOUR) =>
      scheduler.put(storage.db, { kind: 'test.check', subject, workspace: 'w1', intervalSeconds });

    beforeEach(async () => {
      storage = await database.open();
      clock = T0;
    });
    afterEach(async () => {
      await Promise.all(schedulers.splice(0).map((s) => s.stop()));
      await storage.close();
    });

    test('a slot comes due at interval plus offset and is enqueued once', async () => {
      const scheduler = newScheduler();
      await put(scheduler, 's1');
      const offset = jitterMs('s1', HOUR * 1000, 60);
      const due = new Date(T0 + HOUR * 1000 + offset).toISOString();
      expect((await row('s1')).next_due_at).toBe(due);

      clock = T0 + HOUR * 1000 + offset - 1;
      expect(await scheduler.tick()).toBe(0);
      clock += 1;
      expect(await scheduler.tick()).toBe(1);
      expect(await scheduler.tick()).toBe(0);
      expect(await jobs()).toEqual([{ kind: 'test.check', workspace: 'w1', subject: 's1', due }]);
      expect((await storage.db.selectFrom('jobs').select('max_attempts').executeTakeFirstOrThrow()).max_attempts).toBe(2);
      expect((await row('s1')).next_due_at).toBe(new Date(Date.parse(due) + HOUR * 1000).toISOString());

      clock = Date.parse(due) + HOUR * 1000 + 5000;
      expect(await scheduler.tick()).toBe(1);
      expect((await jobs()).map((j) => j.due)).toEqual([due, new Date(Date.parse(due) + HOUR * 1000).toISOString()]);
    });

    test('after downtime the missed slots run once, and the schedule restarts from now', async () => {
      const scheduler = newScheduler();
      await put(scheduler, 's1');
      clock = T0 + 10 * HOUR * 1000 + 120_000;
      expect(await scheduler.tick()).toBe(1);
      expect(await scheduler.tick()).toBe(0);
      expect((await row('s1')).next_due_at).toBe(new Date(clock + HOUR * 1000 + jitterMs('s1', HOUR * 1000, 60)).toISOString());
    });

    test('paused subjects are not claimed; resuming runs an overdue slot once', async () => {
      const scheduler = newScheduler();
      await put(scheduler, 's1');
      await scheduler.setActive(storage.db, 'test.check', 's1', false);
      clock = T0 + 3 * HOUR * 1000;
      expect(await scheduler.tick()).toBe(0);
      await scheduler.setActive(storage.db, 'test.check', 's1', true);
      expect(await scheduler.tick()).toBe(1);
      expect(await scheduler.tick()).toBe(0);
      await scheduler.remove(storage.db, 'test.check', 's1');
      clock += 10 * HOUR * 1000;
      expect(await scheduler.tick()).toBe(0);
      // Only this kind: the built-in features bring subjects of their own (the crawl retention's).
      expect(await storage.db.selectFrom('schedules').selectAll().where('kind', '=', 'test.check').execute()).toEqual([]);
    });

    test('a new interval keeps the phase and never moves the slot into the past', async () => {
      const scheduler = newScheduler();
      await put(scheduler, 's1', 2 * HOUR);
      const first = Date.parse((await row('s1')).next_due_at);
      await put(scheduler, 's1', 3 * HOUR);
      expect(Date.parse((await row('s1')).next_due_at)).toBe(first + HOUR * 1000);
      clock = first + 10 * HOUR * 1000;
      await put(scheduler, 's1', HOUR);
      expect(Date.parse((await row('s1')).next_due_at)).toBe(clock);
    });

    test('other kinds are left to the processes that handle them', async () => {
      const scheduler = newScheduler();
      await scheduler.put(storage.db, { kind: 'other.check', subject: 'x', workspace: 'w1', intervalSeconds: HOUR });
      clock = T0 + 2 * HOUR * 1000;
      expect(await scheduler.tick()).toBe(0);
    });

    test('two schedulers claiming at once enqueue each of 400 due slots exactly once', async () => {
      const [a, b] = [newScheduler(), newScheduler()];
      for (let i = 0; i < 400; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => put(a, `s${i + j}`)));
      }
      clock = T0 + 2 * HOUR * 1000;
      const [ca, cb] = await Promise.all([a.tick(), b.tick()]);
      expect(ca + cb).toBe(400);
      const enqueued = await jobs();
      expect(enqueued.length).toBe(400);
      expect(new Set(enqueued.map((j) => j.subject)).size).toBe(400);
      expect(await Promise.all([a.tick(), b.tick()])).toEqual([0, 0]);
    });

    test('start() claims overdue slots at once (catch-up on restart) and ticks on', async () => {
      const scheduler = new Scheduler(
        storage.db,
        storage.dialect,
        { insert: (db, specs) => insertJobs(db, specs, 3), poke() {} },
        config,
        silent,
      );
      scheduler.register('test.check');
      schedulers.push(scheduler);
      await storage.db
        .insertInto('schedules')
        .values({
          kind: 'test.check',
          subject_id: 'late',
          workspace_id: 'w1',
          interval_seconds: HOUR,
          next_due_at: new Date(Date.now() - 5 * HOUR * 1000).toISOString(),
          active: 1,
          last_enqueued_at: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      scheduler.start();
      const deadline = Date.now() + 10_000;
      while ((await jobs()).length === 0 && Date.now() < deadline) await Bun.sleep(20);
      expect((await jobs()).map((j) => j.subject)).toEqual(['late']);
      await storage.db
        .updateTable('schedules')
        .set({ next_due_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      while ((await jobs()).length < 2 && Date.now() < deadline) await Bun.sleep(50);
      expect((await jobs()).length).toBe(2);
    });
  });
}
