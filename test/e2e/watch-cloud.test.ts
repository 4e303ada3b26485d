/**
 * Watches in cloud mode, on SQLite and Postgres: each check, the first, manual or scheduled, costs
 * one `watchCheck` credit on a usage row of its own; a workspace without credit gets no check and
 * the watch says why in `last_error` (and stays active). Watches are scoped to their workspace.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';


for (const database of testDatabases()) {
  describe(`watches in cloud mode (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let site: FixtureSite;

    const { tenant, balance, until } = cloudTenants(() => server);

    beforeAll(async () => {
      site = startFixtureSite({ '/page': '<html><head><title>Tides</title></head><body><article><p>The sea rises and falls twice a day.</p></article></body></html>' });
      storage = await database.open();
      server = await startTrawlServer({ storage, overrides: { mode: 'cloud', adminKey: ADMIN_KEY, jobs: { pollIntervalMs: 50 } } });
    });
    afterAll(async () => {
      await server.stop();
      await site.stop();
      await storage.close();
    });

    test('one credit per check; without credit the check does not run and last_error says why', async () => {
      const t = await tenant('starter', 2);
      const created = await server.post('/v1/watch', { url: site.at('/page') }, bearer(t.key));
      expect(created.status).toBe(201);
      const id = created.body.id;
      const detail = async () => (await server.get(`/v1/watch/${id}`, bearer(t.key))).body;
      await until(async () => (await detail()).snapshots.length === 1);
      await until(async () => (await balance(t.id)) === 1);

      expect((await server.post(`/v1/watch/${id}/check`, undefined, bearer(t.key))).status).toBe(202);
      await until(async () => (await detail()).snapshots.length === 2);
      await until(async () => (await balance(t.id)) === 0);
      const lastChecked = (await detail()).last_checked_at;

      expect((await server.post(`/v1/watch/${id}/check`, undefined, bearer(t.key))).status).toBe(202);
      await until(async () => (await detail()).last_error !== null);
      const watch = await detail();
      expect(watch).toMatchObject({ active: true, last_error: 'Insufficient credits: the check was not run' });
      expect(watch.snapshots.length).toBe(2);
      // The skipped check did not check anything: the watch keeps its last real check time.
      expect(watch.last_checked_at).toBe(lastChecked);
      expect(await balance(t.id)).toBe(0);
      const usage = await server.get('/v1/usage?per_page=100', bearer(t.key));
      const checks = usage.body.runs.filter((u: any) => u.endpoint === 'watch.check');
      expect(checks.length).toBe(2);
      expect(checks.every((u: any) => u.credits === 1)).toBe(true);
      // Each check's row is closed with its outcome, not left running.
      expect(checks.map((u: any) => [u.status, typeof u.finished_at])).toEqual([['succeeded', 'string'], ['succeeded', 'string']]);
    });

    test('another workspace cannot see, change or check a watch', async () => {
      const [a, b] = [await tenant('starter', 5), await tenant('starter', 5)];
      const created = await server.post('/v1/watch', { url: site.at('/page') }, bearer(a.key));
      const id = created.body.id;
      expect((await server.get(`/v1/watch/${id}`, bearer(b.key))).status).toBe(404);
      expect((await server.call(`/v1/watch/${id}`, { method: 'PATCH', headers: bearer(b.key), body: { name: 'x' } })).status).toBe(404);
      expect((await server.post(`/v1/watch/${id}/check`, undefined, bearer(b.key))).status).toBe(404);
      expect((await server.get('/v1/watch', bearer(b.key))).body.watches).toEqual([]);
      expect((await server.get('/v1/watch', bearer(a.key))).body.watches.map((w: any) => w.id)).toEqual([id]);
    });
  });
}
