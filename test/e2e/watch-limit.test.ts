/**
 * End to end, on SQLite and (with TEST_DATABASE_URL) Postgres: the per-workspace watch limit holds
 * under simultaneous creates — at the limit's last free place, ten creates at once give one 201
 * and nine 409s, and the workspace ends with exactly the limit; twenty at once through the service
 * (several transactions open together on Postgres) create exactly the limit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { DEFAULT_FILTERS } from '../../core/features/watch/filters.ts';
import { WatchTokens } from '../../core/features/watch/index.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const LIMIT = 3;

for (const database of testDatabases()) {
  describe(`watch limit under simultaneous creates (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;

    beforeAll(async () => {
      storage = await database.open();
      server = await startTrawlServer({ storage, overrides: { watch: { maxPerWorkspace: LIMIT } } });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
    });

    test('one place left: ten creates at once, one succeeds', async () => {
      const create = (n: number) => server.post('/v1/watch', { url: `http://127.0.0.1:1/page-${n}`, interval_minutes: 60 });
      for (let n = 0; n < LIMIT - 1; n++) expect((await create(n)).status).toBe(201);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(100 + i)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, ...Array(9).fill(409)]);
      expect(answers.find((answer) => answer.status === 409)?.body.error).toBe(
        `Watch limit reached: at most ${LIMIT} watches per workspace`,
      );
      expect((await server.get('/v1/watch')).body.total).toBe(LIMIT);
    });

    test('straight through the service, twenty creates at once in another workspace: exactly the limit', async () => {
      const watches = server.trawl.container.resolve(WatchTokens.Service);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          watches.create(
            'team-b',
            { url: `http://127.0.0.1:1/b-${i}`, name: `b-${i}`, intervalMinutes: 60, webhookUrl: null, tags: [], ...DEFAULT_FILTERS },
            { maxPerWorkspace: LIMIT },
          ),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(LIMIT);
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(
        Array(20 - LIMIT).fill('conflict'),
      );
      expect((await watches.list('team-b', { limit: 100, offset: 0 })).total).toBe(LIMIT);
    });
  });
}
