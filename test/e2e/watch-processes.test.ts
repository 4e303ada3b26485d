/**
 * The shared schedule across real processes on Postgres: an API-only process and two worker
 * processes (`--role worker`) share 100 watches. Every watch gets its first check, then one check
 * per slot when the slot comes due — never two, whichever worker claims it — and both workers do
 * checks. Then both stop, the schedule falls five intervals behind (downtime), one worker starts
 * again: each overdue watch is checked once, not once per missed slot.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import type { WatchTables } from '../../core/features/watch/tables.ts';
import { postgresProcessDatabase, postgresTestUrl, type ProcessDatabase } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { spawnTrawl, workerStarted, type TrawlProcess } from '../helpers/trawl-process.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const WATCHES = 100;

if (postgresTestUrl) {
  describe('watches shared by two worker processes on Postgres', () => {
    let site: FixtureSite;
    let target: ProcessDatabase & { storage: Storage };
    let api: TestServer;
    const agents: string[] = [];
    const workers: TrawlProcess[] = [];
    const db = () => target.storage.db.withTables<WatchTables>();
    const env = () => ({
      ...target.env,
      TRAWL_JOBS_SCHEDULE_TICK_SECONDS: '1',
      TRAWL_JOBS_SCHEDULE_JITTER_SECONDS: '0',
      TRAWL_WATCH_CONCURRENCY: '8',
    });
    const startWorker = async (name: string) => {
      const worker = spawnTrawl('worker', { ...env(), TRAWL_FETCH_USER_AGENT: `TrawlBot/0.1 (worker-${name})` });
      workers.push(worker);
      await workerStarted(worker);
      return worker;
    };
    const count = async (scheduled: boolean) => {
      const row = await db()
        .selectFrom('watch_snapshots')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('due_at', scheduled ? 'is not' : 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const until = async (what: () => Promise<boolean>, timeoutMs = 90_000) => {
      for (const deadline = Date.now() + timeoutMs; !(await what()); ) {
        if (Date.now() > deadline)
          throw new Error(`not in time; workers said: ${workers.map((w) => w.output().slice(-2000)).join('\n---\n')}`);
        await Bun.sleep(100);
      }
    };
    /** Fetches per watch page: the proof that no slot was checked twice. */
    const hitsPerPage = () => {
      const counts = new Map<string, number>();
      for (const hit of site.hits) counts.set(hit, (counts.get(hit) ?? 0) + 1);
      return [...new Set(counts.values())];
    };
    const makeDue = (agoMs: number) =>
      db()
        .updateTable('schedules')
        .set({ next_due_at: new Date(Date.now() - agoMs).toISOString() })
        .execute();

    beforeAll(async () => {
      site = startFixtureSite({
        '/w': (req) => {
          agents.push(req.headers.get('user-agent') ?? '');
          return new Response(
            `<html><head><title>W</title></head><body><main><p>Watched page ${new URL(req.url).search}, quiet and unchanging.</p></main></body></html>`,
            { headers: { 'content-type': 'text/html' } },
          );
        },
      });
      target = await postgresProcessDatabase(postgresTestUrl!);
      api = await startTrawlServer({ storage: target.storage, overrides: { role: 'api', watch: { maxPerWorkspace: 1000 } } });
    }, 30_000);
    afterAll(async () => {
      for (const w of workers) w.proc.kill('SIGKILL');
      await api.stop();
      await site.stop();
      await target.cleanup();
    });

    test('each slot is checked once by one of two workers; after downtime the overdue slot runs once', async () => {
      await Promise.all([startWorker('a'), startWorker('b')]);
      for (let i = 0; i < WATCHES; i += 25) {
        const batch = await Promise.all(
          Array.from({ length: 25 }, (_, j) => api.post('/v1/watch', { url: site.at(`/w?n=${i + j}`), interval_minutes: 60 })),
        );
        expect(batch.every((r) => r.status === 201)).toBe(true);
      }
      await until(async () => (await count(false)) === WATCHES);

      await makeDue(1000);
      await until(async () => (await count(true)) === WATCHES);
      await Bun.sleep(2500); // two more ticks: nothing is claimed again
      expect(await count(true)).toBe(WATCHES);
      expect(hitsPerPage()).toEqual([2]);
      expect(new Set(agents)).toEqual(new Set(['TrawlBot/0.1 (worker-a)', 'TrawlBot/0.1 (worker-b)']));

      for (const w of workers.splice(0)) {
        w.proc.kill('SIGTERM');
        expect(await w.proc.exited).toBe(0);
      }
      await makeDue(5 * 3600_000);
      await startWorker('c');
      await until(async () => (await count(true)) === 2 * WATCHES);
      await Bun.sleep(2500);
      expect(await count(true)).toBe(2 * WATCHES);
      expect(hitsPerPage()).toEqual([3]);
      const next = await db().selectFrom('schedules').select('next_due_at').execute();
      expect(next.every((r) => Date.parse(r.next_due_at) > Date.now() + 55 * 60_000)).toBe(true);
      const leftover = await db().selectFrom('jobs').select('id').where('kind', '=', 'watch.check').execute();
      expect(leftover).toEqual([]);
    }, 240_000);
  });
}
