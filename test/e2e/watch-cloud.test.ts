/**
 * Watches in cloud mode, on SQLite and Postgres: each check, the first, manual or scheduled, costs
 * one `watchCheck` credit on a usage row of its own; a workspace without credit gets no check and
 * the watch says why in `last_error` (and stays active). A lapsed workspace starts no watch work:
 * create and check (HTTP and MCP) answer 403, its scheduled checks are skipped uncharged with
 * `last_error` saying so, and run again once the operator makes it active. Limits (watches per
 * workspace, interval floor) are the plan's. Watches are scoped to their workspace.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { ADMIN_KEY, admin, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
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
      site = startFixtureSite({
        '/page':
          '<html><head><title>Tides</title></head><body><article><p>The sea rises and falls twice a day.</p></article></body></html>',
      });
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        overrides: {
          mode: 'cloud',
          adminKey: ADMIN_KEY,
          jobs: { pollIntervalMs: 50, scheduleTickSeconds: 1 },
          plans: { scale: { maxWatches: 22, minWatchIntervalMinutes: 5 } },
        },
      });
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
      expect(checks.map((u: any) => [u.status, typeof u.finished_at])).toEqual([
        ['succeeded', 'string'],
        ['succeeded', 'string'],
      ]);
    });

    test('a lapsed workspace starts no watch work; its scheduled checks are skipped uncharged and resume once it is active', async () => {
      const t = await tenant('starter', 10);
      const created = await server.post('/v1/watch', { url: site.at('/page') }, bearer(t.key));
      const id = created.body.id;
      const detail = async () => (await server.get(`/v1/watch/${id}`, bearer(t.key))).body;
      await until(async () => (await detail()).snapshots.length === 1 && (await balance(t.id)) === 9);
      const checkedAt = (await detail()).last_checked_at;
      const setStatus = (status: string) => server.call(`/admin/workspaces/${t.id}`, { method: 'PATCH', headers: admin, body: { status } });
      const makeDue = () =>
        storage.db
          .updateTable('schedules')
          .set({ next_due_at: new Date(Date.now() - 1000).toISOString() })
          .where('subject_id', '=', id)
          .execute();
      expect((await setStatus('lapsed')).body.status).toBe('lapsed');

      const lapsed = (call: string) => ({ status: 403, body: { error: `This workspace's plan has lapsed: ${call} requires a paid plan` } });
      expect(await server.post('/v1/watch', { url: site.at('/page?again') }, bearer(t.key))).toMatchObject(lapsed('POST /v1/watch'));
      expect(await server.post(`/v1/watch/${id}/check`, undefined, bearer(t.key))).toMatchObject(lapsed('POST /v1/watch/:id/check'));
      const tool = await server.post(
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'watch_create', arguments: { url: site.at('/page?mcp') } } },
        { ...bearer(t.key), accept: 'application/json, text/event-stream' },
      );
      expect(tool.body.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining("This workspace's plan has lapsed") }],
      });
      expect((await server.get('/v1/watch', bearer(t.key))).body.watches.map((w: any) => w.id)).toEqual([id]);

      await makeDue();
      await until(async () => (await detail()).last_error !== null);
      expect(await detail()).toMatchObject({
        active: true,
        last_error: "Skipped: the workspace's plan has lapsed",
        last_checked_at: checkedAt,
        snapshots: [expect.anything()],
      });
      expect(await balance(t.id)).toBe(9);
      const checks = async () => (await server.get('/v1/usage?endpoint=watch.check', bearer(t.key))).body.runs;
      expect((await checks()).map((u: any) => u.credits)).toEqual([1]);

      // Active again: the next slot runs and is charged, with nothing to do by hand.
      expect((await setStatus('active')).body.status).toBe('active');
      await makeDue();
      await until(async () => (await detail()).snapshots.length === 2);
      const resumed = await detail();
      expect(resumed.last_error).toBeNull();
      expect(Date.parse(resumed.last_checked_at)).toBeGreaterThan(Date.parse(checkedAt));
      await until(async () => (await balance(t.id)) === 8);
      expect((await checks()).map((u: any) => u.credits)).toEqual([1, 1]);
      // The API document lists the refusal on both calls that start checks.
      const { paths } = (await server.get('/openapi.json', bearer(t.key))).body;
      for (const operation of [paths['/v1/watch'].post, paths['/v1/watch/{id}/check'].post])
        expect(operation.responses[403].description).toContain('plan has lapsed');
    });

    test('limits come from the plan: 20 watches and a 60-minute floor by default, what a plan is configured with otherwise', async () => {
      const starter = await tenant('starter', 0);
      for (const interval of [5, 59]) {
        const refused = await server.post('/v1/watch', { url: site.at('/page'), interval_minutes: interval }, bearer(starter.key));
        expect(refused).toMatchObject({ status: 400, body: { error: 'Invalid field interval_minutes: must be from 60 to 10080 minutes' } });
      }
      for (let i = 0; i < 20; i++)
        expect((await server.post('/v1/watch', { url: site.at(`/page?n=${i}`), interval_minutes: 60 }, bearer(starter.key))).status).toBe(
          201,
        );
      const full = await server.post('/v1/watch', { url: site.at('/page?n=21') }, bearer(starter.key));
      expect(full).toMatchObject({ status: 409, body: { error: 'Watch limit reached: at most 20 watches per workspace' } });

      const scale = await tenant('scale', 0);
      const often = await server.post('/v1/watch', { url: site.at('/page'), interval_minutes: 5 }, bearer(scale.key));
      expect(often).toMatchObject({ status: 201, body: { interval_minutes: 5 } });
      expect(
        (await server.call(`/v1/watch/${often.body.id}`, { method: 'PATCH', headers: bearer(scale.key), body: { interval_minutes: 4 } }))
          .status,
      ).toBe(400);
      for (let i = 1; i < 22; i++)
        expect((await server.post('/v1/watch', { url: site.at(`/page?m=${i}`) }, bearer(scale.key))).status).toBe(201);
      expect((await server.post('/v1/watch', { url: site.at('/page?m=23') }, bearer(scale.key))).body.error).toBe(
        'Watch limit reached: at most 22 watches per workspace',
      );
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
