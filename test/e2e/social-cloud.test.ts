/**
 * Social monitors and audience export in cloud mode, on SQLite and Postgres: free and lapsed
 * workspaces get 403 on every social route; a monitor check (the first, manual or scheduled) costs
 * the plan rate on a usage row of its own (Starter 5, Scale 1); an audience call reserves
 * `max_pages` pages at the plan rate and gives back the pages it did not fetch; one whose later page
 * fails answers what it got, paying for that only; both `handle` and `user_id` is a 400. A check's
 * usage row is finished with its outcome; a monitor whose checks cannot be paid for (the workspace's
 * credits, the source's usage cap) is paused, saying why. A monitor of a workspace that lapsed (or
 * moved to the free plan) is skipped on schedule, uncharged and without asking the source,
 * `last_error` saying why, and checked again once the workspace is active.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { ADMIN_KEY, admin, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import type { SocialTables } from '../../core/features/social/tables.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startXApiServer, X_TEST_TOKEN, type XApiServer } from '../servers/x-api.ts';

for (const database of testDatabases()) {
  describe(`social in cloud mode (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let api: XApiServer;

    const { tenant, balance, until } = cloudTenants(() => server);

    beforeAll(async () => {
      api = startXApiServer();
      api.users.push({ id: '42', username: 'harbour', name: 'Harbour' });
      for (let n = 0; n < 1200; n++) api.users.push({ id: String(7000 + n), username: `s${n}`, name: `S ${n}` });
      api.followers.set(
        '42',
        api.users.slice(1).map((u) => u.id),
      );
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        env: { TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: api.url },
        overrides: { mode: 'cloud', adminKey: ADMIN_KEY, jobs: { pollIntervalMs: 50, scheduleTickSeconds: 1 } },
      });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      api.stop();
    });

    test('free and lapsed workspaces get 403 on every social route', async () => {
      const free = await tenant('free', 100);
      const routes: Array<[string, string, unknown]> = [
        ['POST', '/v1/social/monitors', { kind: 'search', target: 'tide' }],
        ['GET', '/v1/social/monitors', undefined],
        ['GET', '/v1/social/monitors/x', undefined],
        ['PATCH', '/v1/social/monitors/x', { name: 'n' }],
        ['DELETE', '/v1/social/monitors/x', undefined],
        ['POST', '/v1/social/monitors/x/check', undefined],
        ['POST', '/v1/social/audience', { handle: 'harbour' }],
      ];
      for (const [method, path, body] of routes) {
        const answer = await server.call(path, { method, headers: bearer(free.key), body });
        expect([path, answer.status, answer.body.error]).toEqual([path, 403, expect.stringContaining('requires a paid plan')]);
      }
      // The refusal names the feature a user knows, never the cost table's unit.
      const audience = await server.post('/v1/social/audience', { handle: 'harbour' }, bearer(free.key));
      expect(audience.body).toEqual({ error: 'Audience export (beta) requires a paid plan' });
      const lapsed = await tenant('starter', 100);
      await server.call(`/admin/workspaces/${lapsed.id}`, { method: 'PATCH', headers: admin, body: { status: 'lapsed' } });
      expect((await server.get('/v1/social/monitors', bearer(lapsed.key))).status).toBe(403);
      expect(await balance(free.id)).toBe(100);
    });

    test('each monitor check costs the plan rate on its own usage row', async () => {
      const starter = await tenant('starter', 100);
      const created = await server.post('/v1/social/monitors', { kind: 'profile', target: 'harbour' }, bearer(starter.key));
      expect(created.status).toBe(201);
      await until(async () => (await balance(starter.id)) === 95);
      expect((await server.post(`/v1/social/monitors/${created.body.id}/check`, undefined, bearer(starter.key))).status).toBe(202);
      await until(async () => (await balance(starter.id)) === 90);
      const usage = await server.get('/v1/usage?per_page=100', bearer(starter.key));
      const checks = usage.body.runs.filter((u: any) => u.endpoint === 'social.check');
      expect(checks.map((u: any) => u.credits)).toEqual([5, 5]);

      const scale = await tenant('scale', 10);
      await server.post('/v1/social/monitors', { kind: 'search', target: 'tide' }, bearer(scale.key));
      await until(async () => (await balance(scale.id)) === 9);
    });

    test("a lapsed or free workspace's monitors are skipped on schedule, uncharged, and checked again once it is active", async () => {
      const t = await tenant('starter', 100);
      const created = await server.post('/v1/social/monitors', { kind: 'search', target: 'lapse' }, bearer(t.key));
      const id = created.body.id;
      await until(async () => (await balance(t.id)) === 95);
      const row = () =>
        storage.db
          .withTables<SocialTables>()
          .selectFrom('social_monitors')
          .select(['last_error', 'last_checked_at'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      await until(async () => (await row()).last_checked_at !== null);
      const checkedAt = (await row()).last_checked_at;
      const patch = (body: object) => server.call(`/admin/workspaces/${t.id}`, { method: 'PATCH', headers: admin, body });
      const makeDue = () =>
        storage.db
          .updateTable('schedules')
          .set({ next_due_at: new Date(Date.now() - 1000).toISOString() })
          .where('subject_id', '=', id)
          .execute();
      const asked = () => api.requests.filter((r) => r.query.get('query')?.includes('lapse')).length;
      const askedBefore = asked();

      await patch({ status: 'lapsed' });
      for (const [method, path, body] of [
        ['POST', '/v1/social/monitors', { kind: 'search', target: 'more' }],
        ['POST', `/v1/social/monitors/${id}/check`, undefined],
      ] as const) {
        const refused = await server.call(path, { method, headers: bearer(t.key), body });
        expect([refused.status, refused.body.error]).toEqual([
          403,
          `This workspace's plan has lapsed: ${method} ${path.replace(id, ':id')} requires a paid plan`,
        ]);
      }
      await makeDue();
      await until(async () => (await row()).last_error !== null);
      expect(await row()).toEqual({ last_error: "Skipped: the workspace's plan has lapsed", last_checked_at: checkedAt });

      // Back on a plan but the free one: still skipped, for the plan's reason.
      await patch({ status: 'active', plan: 'free' });
      await makeDue();
      await until(async () => (await row()).last_error !== "Skipped: the workspace's plan has lapsed");
      expect(await row()).toEqual({ last_error: 'Skipped: Social monitoring requires a paid plan', last_checked_at: checkedAt });
      expect([asked(), await balance(t.id)]).toEqual([askedBefore, 95]);

      await patch({ plan: 'starter' });
      await makeDue();
      await until(async () => (await row()).last_checked_at !== checkedAt);
      expect((await row()).last_error).toBeNull();
      expect(asked()).toBe(askedBefore + 1);
      await until(async () => (await balance(t.id)) === 90);
    });

    test('audience pages cost the plan rate; pages not fetched are given back', async () => {
      const growth = await tenant('growth', 100);
      const answer = await server.post('/v1/social/audience', { handle: 'harbour', max_pages: 5 }, bearer(growth.key));
      expect(answer.body).toMatchObject({ count: 1200, pages_fetched: 2, next_cursor: null, credits_charged: 6 });
      expect(answer.headers.get('x-credits-used')).toBe('6');
      expect(await balance(growth.id)).toBe(94);
      const poor = await tenant('starter', 4);
      expect((await server.post('/v1/social/audience', { handle: 'harbour', max_pages: 1 }, bearer(poor.key))).status).toBe(402);
    });

    test("a check's usage row is finished with its outcome", async () => {
      const growth = await tenant('growth', 100);
      const created = await server.post('/v1/social/monitors', { kind: 'profile', target: 'harbour' }, bearer(growth.key));
      expect(created.status).toBe(201);
      const checks = async () =>
        (await server.get('/v1/usage?per_page=100', bearer(growth.key))).body.runs.filter((u: any) => u.endpoint === 'social.check');
      await until(async () => (await checks()).some((u: any) => u.status !== 'running'));
      expect(await checks()).toEqual([expect.objectContaining({ status: 'succeeded', finished_at: expect.any(String), credits: 3 })]);
    });

    test('a monitor whose checks cannot be paid for is paused, saying why', async () => {
      const poor = await tenant('starter', 4);
      const broke = await server.post('/v1/social/monitors', { kind: 'search', target: 'tide' }, bearer(poor.key));
      expect(broke.status).toBe(201);
      const shown = (id: string, key: string) => server.get(`/v1/social/monitors/${id}`, bearer(key));
      await until(async () => (await shown(broke.body.id, poor.key)).body.active === false);
      expect((await shown(broke.body.id, poor.key)).body.last_error).toMatch(/^Paused: Insufficient credits/);

      const rich = await tenant('growth', 100);
      api.capped = true;
      try {
        const capped = await server.post('/v1/social/monitors', { kind: 'search', target: 'tide' }, bearer(rich.key));
        expect(capped.status).toBe(201);
        await until(async () => (await shown(capped.body.id, rich.key)).body.active === false);
        expect((await shown(capped.body.id, rich.key)).body.last_error).toMatch(
          /^Paused: the social API refused: its usage cap or credits are spent/,
        );
      } finally {
        api.capped = false;
      }
      // The check that found the cap spent was given back.
      await until(async () => (await balance(rich.id)) === 100);
    });

    test('audience: both handle and user_id is a 400; a later page that fails keeps what was fetched and pays for that only', async () => {
      const growth = await tenant('growth', 100);
      const both = await server.post('/v1/social/audience', { handle: 'harbour', user_id: '42' }, bearer(growth.key));
      expect([both.status, both.body.error]).toEqual([400, 'Send handle or user_id, not both']);
      api.audiencePagesBeforeFailure = 1;
      try {
        const answer = await server.post('/v1/social/audience', { user_id: '42', max_pages: 5 }, bearer(growth.key));
        expect(answer.status).toBe(200);
        const cursor = answer.body.next_cursor;
        expect(typeof cursor).toBe('string');
        expect(answer.body).toMatchObject({
          count: 1000,
          pages_fetched: 1,
          credits_charged: 3,
          error: expect.stringContaining('Stopped after 1 page: '),
        });
        expect(answer.headers.get('x-credits-used')).toBe('3');
        expect(await balance(growth.id)).toBe(97);
        api.audiencePagesBeforeFailure = null;
        const rest = await server.post('/v1/social/audience', { user_id: '42', cursor, max_pages: 5 }, bearer(growth.key));
        expect(rest.body).toMatchObject({ count: 200, pages_fetched: 1, next_cursor: null });
      } finally {
        api.audiencePagesBeforeFailure = null;
      }
    });
  });
}
