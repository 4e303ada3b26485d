/**
 * The workspace's own account API over HTTP, on SQLite and Postgres: GET /v1/account, the key
 * endpoints (list, create shown once, rename, revoke at once) and every error they answer, roles
 * (member keys get 403 on key management and billing, call the API otherwise), the last admin key
 * kept (409), the per-workspace key cap, and usage per endpoint per day. Cloud mode; the same
 * endpoints on a self-hosted server are the last describe.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Writable } from 'node:stream';
import { createLogger } from '../../core/logger.ts';
import type { Storage } from '../../core/services.ts';
import { MAX_WORKSPACE_KEYS } from '../../core/features/accounts/accounts.ts';
import { ADMIN_KEY, admin, bearer } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const PAGE =
  '<!doctype html><html><head><title>Tides</title></head><body><article><h1>Tides</h1><p>The sea rises and falls twice a day.</p></article></body></html>';
const MEMBER_REFUSAL = /^This key's role is member: .+ needs an admin key of the workspace$/;

for (const database of testDatabases()) {
  describe(`account API, cloud mode (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let site: FixtureSite;

    /** A workspace with one admin key made by the operator. */
    const workspace = async (extra: Record<string, unknown> = {}) => {
      const made = await server.post('/admin/workspaces', { name: 'Harbour', plan: 'starter', credits: 50, ...extra }, admin);
      const key = await server.post(`/admin/workspaces/${made.body.id}/keys`, { name: 'owner' }, admin);
      expect(key.body.role).toBe('admin');
      return { id: made.body.id as string, key: key.body.key as string, keyId: key.body.id as string };
    };
    const call = (key: string, method: string, path: string, body?: unknown) =>
      server.call(path, { method, headers: bearer(key), ...(body === undefined ? {} : { body }) });

    beforeAll(async () => {
      site = startFixtureSite({ '/page': PAGE });
      storage = await database.open();
      server = await startTrawlServer({ storage, overrides: { mode: 'cloud', adminKey: ADMIN_KEY } });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      await site.stop();
    });

    test('GET /v1/account: the workspace, plan, balance and the calling key', async () => {
      const w = await workspace();
      const account = await server.get('/v1/account', bearer(w.key));
      expect(account.status).toBe(200);
      expect(account.body).toEqual({
        workspace: { id: w.id, name: 'Harbour' },
        mode: 'cloud',
        plan: 'starter',
        status: 'active',
        balance: 50,
        rate_limit_per_minute: 120,
        key: { id: w.keyId, role: 'admin' },
        role: 'admin',
      });
      expect((await server.get('/v1/account')).status).toBe(401);
    });

    test('keys: create (the secret in that answer only), list by suffix, rename, revoke — the next call with it is 401', async () => {
      const w = await workspace();
      const made = await call(w.key, 'POST', '/v1/keys', { name: 'deploy bot', role: 'admin' });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({
        name: 'deploy bot',
        role: 'admin',
        suffix: made.body.key.slice(-4),
        revoked_at: null,
        current: false,
      });
      expect(made.body.key).toMatch(/^trawl_[A-Za-z0-9_-]{43}$/);
      // The new key works at once, and sees itself as the current key.
      const listed = await call(made.body.key, 'GET', '/v1/keys');
      expect(listed.status).toBe(200);
      expect(listed.body).toMatchObject({
        total: 2,
        keys: [
          { id: w.keyId, current: false },
          { id: made.body.id, current: true, name: 'deploy bot' },
        ],
      });
      expect(JSON.stringify(listed.body)).not.toContain(made.body.key.slice(6, -4));
      expect(JSON.stringify(listed.body)).not.toContain(w.key.slice(6, -4));

      expect((await call(w.key, 'PATCH', `/v1/keys/${made.body.id}`, { name: 'release bot' })).body).toMatchObject({
        id: made.body.id,
        name: 'release bot',
      });
      expect((await call(w.key, 'PATCH', `/v1/keys/${made.body.id}`, { name: null })).body.name).toBeNull();

      const scraped = await server.post('/v1/scrape', { url: site.at('/page') }, bearer(made.body.key));
      expect(scraped.status).toBe(200);
      const revoked = await call(w.key, 'DELETE', `/v1/keys/${made.body.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.revoked_at).not.toBeNull();
      // At once, though this server remembered the key from its calls a moment ago.
      expect(await server.post('/v1/scrape', { url: site.at('/page') }, bearer(made.body.key))).toMatchObject({
        status: 401,
        body: { error: 'Invalid or missing API key' },
      });
      expect((await call(made.body.key, 'GET', '/v1/keys')).status).toBe(401);
      expect((await call(w.key, 'DELETE', `/v1/keys/${made.body.id}`)).body.revoked_at).toBe(revoked.body.revoked_at);
      expect((await call(w.key, 'GET', '/v1/keys')).body).toMatchObject({ total: 1, keys: [{ id: w.keyId }] });
      // The operator still sees it, revoked.
      expect(
        (await server.get(`/admin/workspaces/${w.id}/keys`, admin)).body.keys.find((k: { id: string }) => k.id === made.body.id),
      ).toMatchObject({ role: 'admin', revoked_at: revoked.body.revoked_at });
    });

    test('a member key calls the API but gets 403 on key management and billing; its account shows no balance', async () => {
      const w = await workspace();
      const member = await call(w.key, 'POST', '/v1/keys', { name: 'ci', role: 'member' });
      expect(member.body.role).toBe('member');
      const key = member.body.key as string;
      expect((await server.post('/v1/scrape', { url: site.at('/page') }, bearer(key))).status).toBe(200);
      expect((await call(key, 'GET', '/v1/results')).status).toBe(200);
      expect((await server.get('/v1/account', bearer(key))).body).toMatchObject({
        role: 'member',
        balance: null,
        plan: 'starter',
        key: { id: member.body.id, role: 'member' },
      });
      for (const [method, path, body] of [
        // Refused before the body is read: a bad body is a 403 too.
        ['GET', '/v1/keys'],
        ['POST', '/v1/keys', { name: 'mine', role: 'admin' }],
        ['POST', '/v1/keys', { role: 'owner' }],
        ['PATCH', `/v1/keys/${w.keyId}`, { name: 'x' }],
        ['PATCH', `/v1/keys/${w.keyId}`, {}],
        ['DELETE', `/v1/keys/${w.keyId}`],
        ['DELETE', `/v1/keys/${member.body.id}`],
        ['GET', '/v1/usage'],
      ] as const) {
        const answer = await call(key, method, path, body);
        expect([method, path, answer.status]).toEqual([method, path, 403]);
        expect(answer.body.error).toMatch(MEMBER_REFUSAL);
      }
      expect((await call(w.key, 'GET', '/v1/keys')).body.total).toBe(2);
    });

    test('the last admin key cannot be revoked (409); with a second admin it can, even by itself', async () => {
      const w = await workspace();
      await call(w.key, 'POST', '/v1/keys', { role: 'member' });
      const last = await call(w.key, 'DELETE', `/v1/keys/${w.keyId}`);
      expect(last).toMatchObject({
        status: 409,
        body: { error: "This is the workspace's last admin key: create another admin key before revoking it" },
      });
      const second = await call(w.key, 'POST', '/v1/keys', {});
      expect(second.body.role).toBe('admin');
      expect((await call(w.key, 'DELETE', `/v1/keys/${w.keyId}`)).status).toBe(200);
      expect((await server.get('/v1/account', bearer(w.key))).status).toBe(401);
      expect((await server.get('/v1/account', bearer(second.body.key))).body.role).toBe('admin');
      // The operator is above the rule.
      expect((await server.call(`/admin/keys/${second.body.id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    });

    test("every key endpoint's errors: 401, 400, 404 (unknown or another workspace's), 409 at the cap", async () => {
      const w = await workspace({ rate_limit: 100_000 });
      const other = await workspace();
      for (const [method, path] of [
        ['GET', '/v1/keys'],
        ['POST', '/v1/keys'],
        ['PATCH', `/v1/keys/${w.keyId}`],
        ['DELETE', `/v1/keys/${w.keyId}`],
        ['GET', '/v1/account'],
      ] as const) {
        expect(
          await server.call(path, { method, ...(method === 'POST' || method === 'PATCH' ? { body: { name: 'x' } } : {}) }),
        ).toMatchObject({ status: 401, body: { error: 'Invalid or missing API key' } });
      }
      const bad = async (method: string, path: string, body: unknown, error: string | RegExp) => {
        const answer = await call(w.key, method, path, body);
        expect([method, path, answer.status]).toEqual([method, path, 400]);
        expect(answer.body.error).toMatch(error);
      };
      await bad('POST', '/v1/keys', { role: 'owner' }, /^Invalid field role/);
      await bad('POST', '/v1/keys', { name: '' }, /^Invalid field name/);
      await bad('POST', '/v1/keys', { name: 'x'.repeat(201) }, /^Invalid field name/);
      await bad('POST', '/v1/keys', { scopes: ['all'] }, /scopes/);
      await bad('PATCH', `/v1/keys/${w.keyId}`, {}, 'Missing required field: name');
      await bad('PATCH', `/v1/keys/${w.keyId}`, { name: 'x', role: 'member' }, /role/);
      await bad('GET', '/v1/keys?per_page=0', undefined, /per_page/);
      for (const [method, id] of [
        ['PATCH', 'no-such-key'],
        ['DELETE', 'no-such-key'],
        ['PATCH', other.keyId],
        ['DELETE', other.keyId],
        ['DELETE', 'x'.repeat(500)],
      ] as const) {
        const answer = await call(w.key, method, `/v1/keys/${id}`, method === 'PATCH' ? { name: 'x' } : undefined);
        expect([method, answer.status, answer.body.error]).toEqual([method, 404, `Key not found: ${id.slice(0, 64)}`]);
      }
      expect((await server.get('/v1/account', bearer(other.key))).status).toBe(200);
      // The cap: the operator's key plus what the workspace made.
      const made = await Promise.all(
        Array.from({ length: MAX_WORKSPACE_KEYS - 1 }, (_, i) => call(w.key, 'POST', '/v1/keys', { name: `k${i}`, role: 'member' })),
      );
      expect(made.every((m) => m.status === 201)).toBe(true);
      expect(await call(w.key, 'POST', '/v1/keys', {})).toMatchObject({
        status: 409,
        body: { error: `A workspace holds at most ${MAX_WORKSPACE_KEYS} working keys: revoke one first` },
      });
      expect((await call(w.key, 'GET', '/v1/keys?per_page=100&page=2')).body).toMatchObject({ total: MAX_WORKSPACE_KEYS, keys: [] });
      expect((await call(w.key, 'DELETE', `/v1/keys/${made[0]!.body.id}`)).status).toBe(200);
      expect((await call(w.key, 'POST', '/v1/keys', {})).status).toBe(201);
    }, 30_000);

    test("/v1/usage counts each endpoint per day (the account page's chart)", async () => {
      const w = await workspace();
      for (let i = 0; i < 3; i++) expect((await server.post('/v1/scrape', { url: site.at('/page') }, bearer(w.key))).status).toBe(200);
      expect((await server.post('/v1/map', { url: site.at('/page') }, bearer(w.key))).status).toBe(200);
      const usage = await server.get('/v1/usage', bearer(w.key));
      const today = new Date().toISOString().slice(0, 10);
      expect(usage.body.totals.by_day_endpoint).toEqual([
        { day: today, endpoint: 'map', runs: 1, credits: expect.any(Number) },
        { day: today, endpoint: 'scrape', runs: 3, credits: 3 },
      ]);
    });
  });
}

describe('account API, self-hosted', () => {
  const KEY = 'self-hosted-configured-key-0123456789';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTrawlServer({ overrides: { apiKey: KEY } });
  });
  afterAll(() => server.stop());

  test('the default workspace: no plan or balance, the configured key kept, member keys refused, revocation at once', async () => {
    expect((await server.get('/v1/account', bearer(KEY))).body).toMatchObject({
      workspace: { id: 'default' },
      mode: 'self-hosted',
      plan: null,
      balance: null,
      role: 'admin',
    });
    const listed = await server.get('/v1/keys', bearer(KEY));
    expect(listed.body).toMatchObject({ total: 1, keys: [{ suffix: null, role: 'admin', current: true }] });
    const configured = listed.body.keys[0].id;
    expect(await server.call(`/v1/keys/${configured}`, { method: 'DELETE', headers: bearer(KEY) })).toMatchObject({
      status: 409,
      body: { error: expect.stringContaining('TRAWL_API_KEY') },
    });
    const member = await server.post('/v1/keys', { role: 'member' }, bearer(KEY));
    expect(member.status).toBe(201);
    expect((await server.get('/v1/account', bearer(member.body.key))).body).toMatchObject({ role: 'member' });
    expect((await server.get('/v1/keys', bearer(member.body.key))).status).toBe(403);
    expect((await server.call(`/v1/keys/${member.body.id}`, { method: 'DELETE', headers: bearer(KEY) })).status).toBe(200);
    expect((await server.get('/v1/account', bearer(member.body.key))).status).toBe(401);
    expect((await server.get('/v1/usage', bearer(KEY))).status).toBe(404);
  });
});

describe("audit of a workspace's own key changes", () => {
  test('one line each, actor workspace and the key that made it; no key in clear', async () => {
    let lines = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines += chunk.toString();
        done();
      },
    });
    const server = await startTrawlServer({ logger: createLogger('trace', sink), overrides: { mode: 'cloud', adminKey: ADMIN_KEY } });
    try {
      const made = await server.post('/admin/workspaces', { name: 'Audited', plan: 'starter' }, admin);
      const owner = (await server.post(`/admin/workspaces/${made.body.id}/keys`, {}, admin)).body;
      const key = (await server.post('/v1/keys', { name: 'bot', role: 'member' }, bearer(owner.key))).body;
      await server.call(`/v1/keys/${key.id}`, { method: 'PATCH', headers: bearer(owner.key), body: { name: 'robot' } });
      await server.call(`/v1/keys/${key.id}`, { method: 'DELETE', headers: bearer(owner.key) });
      const audit = lines
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.audit);
      expect(audit.map((entry) => [entry.audit, entry.actor])).toEqual([
        ['workspace.create', 'admin-api'],
        ['key.create', 'admin-api'],
        ['key.create', 'workspace'],
        ['key.rename', 'workspace'],
        ['key.revoke', 'workspace'],
      ]);
      expect(audit.slice(2).every((entry) => entry.byKey === owner.id && entry.keyId === key.id && entry.workspace === made.body.id)).toBe(
        true,
      );
      expect(audit[2]).toMatchObject({ role: 'member', suffix: key.key.slice(-4) });
      expect(lines).not.toContain(key.key.slice('trawl_'.length, -4));
    } finally {
      await server.stop();
    }
  });
});
