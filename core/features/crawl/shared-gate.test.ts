/**
 * The shared host gate on Postgres, with two gates standing for two worker processes on one
 * database: the per-host limit holds across them, starts are spaced by the gap across them, and a
 * slot whose process died (never released) frees when its lease ends. SQLite runs one process and
 * keeps the in-process gate (gate.test.ts), so these run where TEST_DATABASE_URL is set.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import pino from 'pino';
import type { Storage } from '../../services.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { SharedHostGate } from './shared-gate.ts';
import type { CrawlTables } from './tables.ts';

const quiet = pino({ level: 'silent' });

for (const database of testDatabases().filter((d) => d.name === 'postgres')) {
  describe('shared host gate on postgres', () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await database.open();
    });
    afterEach(() => storage.close());
    const gate = (perHost: number, gapMs: number, leaseMs = 60_000) =>
      new SharedHostGate(storage.db.withTables<CrawlTables>(), perHost, gapMs, leaseMs, quiet);

    test('the per-host limit holds across processes; a release lets the next one in', async () => {
      const [a, b] = [gate(2, 0), gate(2, 0)];
      const first = await a.acquire('example.org', 0);
      const second = await b.acquire('example.org', 0);
      let third = false;
      const waiting = a.acquire('example.org', 0).then((release) => {
        third = true;
        return release;
      });
      await Bun.sleep(250);
      expect(third).toBe(false);
      expect(a.busyHosts()).toEqual(['example.org']);
      // Another host is not held back.
      (await b.acquire('other.example', 0))();
      second();
      (await waiting)();
      expect(third).toBe(true);
      first();
    });

    test('a hold-off reaches every process: no start of the host before it ends', async () => {
      const [a, b] = [gate(4, 0), gate(4, 0)];
      (await a.acquire('example.org', 0))();
      await a.holdOff('example.org', 400);
      expect(a.busyHosts()).toEqual(['example.org']);
      const started = Date.now();
      (await b.acquire('example.org', 0))();
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    });

    test("starts are spaced by the larger of the configured gap and the host's delay, across processes", async () => {
      const [a, b] = [gate(4, 100), gate(4, 100)];
      const db = storage.db.withTables<CrawlTables>();
      // Each grant moves the host's next start to (grant time + gap) by the database's clock: read right after it.
      const nextStarts: number[] = [];
      await Promise.all(
        [a, b, a, b].map(async (g) => {
          const release = await g.acquire('slow.example', 300);
          const row = await db.selectFrom('crawl_hosts').select('next_at').where('host', '=', 'slow.example').executeTakeFirstOrThrow();
          nextStarts.push(Number(row.next_at));
          release();
        }),
      );
      const grants = [...new Set(nextStarts)].sort((x, y) => x - y);
      expect(grants).toHaveLength(4);
      for (let i = 1; i < grants.length; i++) expect(grants[i]! - grants[i - 1]!).toBeGreaterThanOrEqual(300);
    });

    test('a slot never released (its process died) frees when its lease ends', async () => {
      const dead = gate(1, 0, 300);
      await dead.acquire('example.org', 0); // never released
      const started = Date.now();
      const release = await gate(1, 0, 300).acquire('example.org', 0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      release();
    });
  });
}
