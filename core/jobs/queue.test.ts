/**
 * The durable job queue on SQLite and (with TEST_DATABASE_URL) Postgres: runs, retries with
 * backoff, permanent failures, exhausted attempts, lapsed leases taken over, graceful shutdown,
 * group cancellation, concurrency, held-back keys, priority, and two workers sharing one queue.
 */
import { afterEach, beforeEach, describe, expect, test, setDefaultTimeout } from 'bun:test';
import pino from 'pino';
import type { Storage } from '../services.ts';
import { testDatabases } from '../../test/helpers/databases.ts';
import { backoffMs } from './attempt.ts';
import { createJobQueue, type DbJobQueue, type JobsConfig } from './queue.ts';
import { createJobStore } from './store.ts';

// Real databases and timers on a shared machine: allow far more than the default 5 s.
setDefaultTimeout(60_000);

const config: JobsConfig = {
  leaseSeconds: 1,
  pollIntervalMs: 20,
  maxAttempts: 3,
  retryBaseMs: 10,
  retryMaxMs: 40,
  shutdownGraceMs: 2000,
  scheduleTickSeconds: 1,
  scheduleJitterSeconds: 0,
  scheduleBatch: 100,
};
const silent = pino({ level: 'silent' });

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await Bun.sleep(10);
  }
}

test('backoff doubles per attempt, is capped, and is jittered between 50 % and 150 %', () => {
  const cfg = { retryBaseMs: 1000, retryMaxMs: 10_000 };
  expect(backoffMs(1, cfg, () => 0.5)).toBe(1000);
  expect(backoffMs(3, cfg, () => 0.5)).toBe(4000);
  expect(backoffMs(20, cfg, () => 0.5)).toBe(10_000);
  expect(backoffMs(2, cfg, () => 0)).toBe(1000);
  expect(backoffMs(2, cfg, () => 0.999)).toBeGreaterThan(2990);
});

for (const database of testDatabases()) {
  describe(`job queue on ${database.name}`, () => {
    let storage: Storage;
    const queues: DbJobQueue[] = [];
    const newQueue = (overrides: Partial<JobsConfig> = {}) => {
      const queue = createJobQueue(storage.db, storage.dialect, { ...config, ...overrides }, silent);
      queues.push(queue);
      return queue;
    };
    const row = (id: string) => storage.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();

    beforeEach(async () => {
      storage = await database.open();
    });
    afterEach(async () => {
      await Promise.all(queues.splice(0).map((q) => q.stop(100)));
      await storage.close();
    });

    test('runs a job with its payload and deletes it when done', async () => {
      const queue = newQueue();
      const seen: unknown[] = [];
      queue.handle('greet', async (job) => {
        seen.push({ payload: job.payload, attempt: job.attempt, workspace: job.workspace });
      });
      const id = await queue.enqueue({ kind: 'greet', workspace: 'w1', payload: { name: 'Ada' } });
      queue.start();
      await until(async () => (await row(id)) === undefined);
      expect(seen).toEqual([{ payload: { name: 'Ada' }, attempt: 1, workspace: 'w1' }]);
    });

    test('a thrown error is retried with backoff until the handler succeeds', async () => {
      const queue = newQueue({ retryBaseMs: 300, retryMaxMs: 300 });
      const attempts: number[] = [];
      queue.handle('flaky', async (job) => {
        attempts.push(job.attempt);
        if (job.attempt < 3) throw new Error(`boom ${job.attempt}`);
      });
      const id = await queue.enqueue({ kind: 'flaky', workspace: 'w', payload: {} });
      queue.start();
      await until(() => attempts.length === 1);
      await until(async () => (await row(id))?.status === 'queued');
      const waiting = (await row(id))!;
      expect(waiting.last_error).toBe('boom 1');
      // The retry is scheduled at least half the backoff ahead of the failure.
      expect(Date.parse(waiting.run_at) - Date.parse(waiting.updated_at)).toBeGreaterThanOrEqual(150);
      await until(async () => (await row(id)) === undefined);
      expect(attempts).toEqual([1, 2, 3]);
    });

    test('a permanent error fails the job at once and reports it to onFailed', async () => {
      const queue = newQueue();
      const failures: string[] = [];
      let runs = 0;
      queue.handle(
        'strict',
        async () => {
          runs++;
          throw Object.assign(new Error('not worth retrying'), { permanent: true });
        },
        {
          onFailed: async (job, error) => {
            failures.push(`${job.attempt}:${error}`);
          },
        },
      );
      const id = await queue.enqueue({ kind: 'strict', workspace: 'w', payload: {} });
      queue.start();
      await until(async () => (await row(id))?.status === 'failed');
      expect(runs).toBe(1);
      expect(failures).toEqual(['1:not worth retrying']);
      expect((await row(id))!.last_error).toBe('not worth retrying');
    });

    test('used-up attempts fail the job; a failing onFailed is retried until it succeeds', async () => {
      const queue = newQueue();
      let runs = 0;
      let reports = 0;
      queue.handle(
        'doomed',
        async () => {
          runs++;
          throw new Error('always');
        },
        {
          onFailed: async () => {
            reports++;
            if (reports === 1) throw new Error('database hiccup');
          },
        },
      );
      const id = await queue.enqueue({ kind: 'doomed', workspace: 'w', payload: {}, maxAttempts: 2 });
      queue.start();
      await until(async () => (await row(id))?.status === 'failed');
      expect(runs).toBe(2);
      expect(reports).toBe(2);
    });

    test('a job whose worker died is taken over when its lease lapses', async () => {
      const queue = newQueue();
      const id = await queue.enqueue({ kind: 'orphan', workspace: 'w', payload: {} });
      const dead = createJobStore(storage.db, storage.dialect);
      const [claimed] = await dead.claim({ kind: 'orphan', limit: 1, worker: 'dead-worker', leaseMs: 300, busyKeys: [] });
      expect(claimed?.id).toBe(id);
      const attempts: number[] = [];
      queue.handle('orphan', async (job) => {
        attempts.push(job.attempt);
      });
      queue.start();
      await until(async () => (await row(id)) === undefined);
      expect(attempts).toEqual([2]);
    });

    test('a lapsed lease on the last attempt ends in onFailed without running the handler again', async () => {
      const queue = newQueue();
      const id = await queue.enqueue({ kind: 'last', workspace: 'w', payload: {}, maxAttempts: 1 });
      await createJobStore(storage.db, storage.dialect).claim({
        kind: 'last',
        limit: 1,
        worker: 'dead-worker',
        leaseMs: 300,
        busyKeys: [],
      });
      let runs = 0;
      const failures: string[] = [];
      queue.handle(
        'last',
        async () => {
          runs++;
        },
        {
          onFailed: async (_job, error) => {
            failures.push(error);
          },
        },
      );
      queue.start();
      await until(async () => (await row(id))?.status === 'failed');
      expect(runs).toBe(0);
      expect(failures).toEqual(['The worker running the last attempt stopped before it finished']);
    });

    test('a job running longer than its lease keeps it: no other worker takes it over', async () => {
      const runs: string[] = [];
      const handler = (name: string) => async () => {
        runs.push(name);
        await Bun.sleep(2500);
      };
      const a = newQueue();
      const b = newQueue();
      a.handle('slow', handler('a'));
      b.handle('slow', handler('b'));
      const id = await a.enqueue({ kind: 'slow', workspace: 'w', payload: {} });
      a.start();
      await until(() => runs.length === 1);
      b.start();
      await until(async () => (await row(id)) === undefined);
      expect(runs).toEqual(['a']);
    });

    test('stop() lets running jobs finish within the deadline', async () => {
      const queue = newQueue();
      let finished = false;
      queue.handle('short', async () => {
        await Bun.sleep(100);
        finished = true;
      });
      const id = await queue.enqueue({ kind: 'short', workspace: 'w', payload: {} });
      queue.start();
      await until(async () => (await row(id))?.status === 'running');
      await queue.stop(10_000);
      expect(finished).toBe(true);
      expect(await row(id)).toBeUndefined();
    });

    test('stop() hands a job still running at the deadline back to the queue, attempt not counted', async () => {
      const queue = newQueue();
      let aborted = false;
      queue.handle(
        'long',
        (_job, signal) =>
          new Promise<void>((_, reject) => {
            signal.addEventListener(
              'abort',
              () => {
                aborted = true;
                reject(signal.reason);
              },
              { once: true },
            );
          }),
      );
      const id = await queue.enqueue({ kind: 'long', workspace: 'w', payload: {} });
      queue.start();
      await until(async () => (await row(id))?.status === 'running');
      await queue.stop(50);
      expect(aborted).toBe(true);
      const back = (await row(id))!;
      expect(back.status).toBe('queued');
      expect(Number(back.attempts)).toBe(0);
      expect(back.locked_by).toBeNull();
      // Another worker picks it up.
      const next = newQueue();
      const runs: number[] = [];
      next.handle('long', async (job) => {
        runs.push(job.attempt);
      });
      next.start();
      await until(async () => (await row(id)) === undefined);
      expect(runs).toEqual([1]);
    });

    test('cancelGroup removes the queued jobs of one group only', async () => {
      const queue = newQueue();
      await queue.enqueueMany([
        { kind: 'g', workspace: 'w', payload: {}, group: 'one' },
        { kind: 'g', workspace: 'w', payload: {}, group: 'one' },
        { kind: 'g', workspace: 'w', payload: {}, group: 'two' },
      ]);
      expect(await queue.cancelGroup('one')).toBe(2);
      const left = await storage.db.selectFrom('jobs').select('group_id').execute();
      expect(left.map((r) => r.group_id)).toEqual(['two']);
    });

    test('never runs more jobs of a kind at once than its concurrency', async () => {
      const queue = newQueue();
      let active = 0;
      let peak = 0;
      let done = 0;
      queue.handle(
        'limited',
        async () => {
          active++;
          peak = Math.max(peak, active);
          await Bun.sleep(15);
          active--;
          done++;
        },
        { concurrency: 3 },
      );
      await queue.enqueueMany(Array.from({ length: 12 }, () => ({ kind: 'limited', workspace: 'w', payload: {} })));
      queue.start();
      await until(() => done === 12);
      expect(peak).toBe(3);
    });

    test('jobs with a busy key stay queued until the key is free; lower priority runs first', async () => {
      const queue = newQueue();
      const order: string[] = [];
      const busy = new Set(['slow.example']);
      queue.handle(
        'page',
        async (job) => {
          order.push(String(job.payload.name));
        },
        { busyKeys: () => busy },
      );
      await queue.enqueueMany([
        { kind: 'page', workspace: 'w', payload: { name: 'held' }, key: 'slow.example', priority: 0 },
        { kind: 'page', workspace: 'w', payload: { name: 'deep' }, key: 'a.example', priority: 2 },
        { kind: 'page', workspace: 'w', payload: { name: 'shallow' }, key: 'a.example', priority: 1 },
      ]);
      queue.start();
      await until(() => order.length === 2);
      expect(order).toEqual(['shallow', 'deep']);
      busy.clear();
      queue.poke();
      await until(() => order.length === 3);
      expect(order[2]).toBe('held');
    });

    test('two workers on one queue run every job exactly once', async () => {
      const counts = new Map<number, number>();
      const handler = async (job: { payload: Record<string, unknown> }) => {
        const n = Number(job.payload.n);
        counts.set(n, (counts.get(n) ?? 0) + 1);
        await Bun.sleep(1);
      };
      const a = newQueue();
      const b = newQueue();
      a.handle('shared', handler, { concurrency: 4 });
      b.handle('shared', handler, { concurrency: 4 });
      await a.enqueueMany(Array.from({ length: 200 }, (_, n) => ({ kind: 'shared', workspace: 'w', payload: { n } })));
      a.start();
      b.start();
      await until(() => counts.size === 200);
      await until(async () => (await storage.db.selectFrom('jobs').select('id').execute()).length === 0);
      expect([...counts.values()].every((c) => c === 1)).toBe(true);
    });
  });
}
