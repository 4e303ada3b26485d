/**
 * What cloud mode leaves alone and what it never does: in self-hosted mode (the default) there are
 * no credits, plans, usage log or results routes, no credit or rate-limit headers, and no admin API
 * without an admin key; with one, keys made there select their workspace and are revoked at once; a
 * configured rate limit applies per workspace. In either mode no key ever reaches a log line.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Writable } from 'node:stream';
import { createLogger } from '../../core/logger.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

/** Rate limits count per calendar minute: a few requests should not straddle two. */
const clearOfMinuteEdge = async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 57_000) await Bun.sleep(60_500 - intoMinute);
};
const PAGE = '<!doctype html><html><head><title>Tides</title></head><body><p>The sea rises and falls twice a day.</p></body></html>';
const ADMIN_KEY = 'admin-key-for-tests-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };

let site: FixtureSite;
beforeAll(() => {
  site = startFixtureSite({ '/page': PAGE });
});
afterAll(() => site.stop());

describe('self-hosted mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTrawlServer();
  });
  afterAll(() => server.stop());

  test('scrapes as before: no credit or rate-limit headers, cloud routes and the admin API are not there', async () => {
    const answer = await server.post('/v1/scrape', { url: site.at('/page') });
    expect(answer.status).toBe(200);
    for (const header of ['x-credits-used', 'x-credits-remaining', 'x-usage-id', 'x-ratelimit-limit'])
      expect(answer.headers.get(header)).toBeNull();
    for (const path of ['/v1/usage', '/v1/results', '/v1/cache/lookup?url=x', '/admin/workspaces']) {
      expect(await server.get(path)).toMatchObject({ status: 404, body: { error: `Not found: GET ${path.split('?')[0]}` } });
    }
    const doc = (await server.get('/openapi.json')).body;
    expect(doc.paths).not.toHaveProperty('/v1/usage');
    expect(doc.paths).not.toHaveProperty('/admin/workspaces');
    expect(doc.paths['/v1/scrape'].post.responses).not.toHaveProperty('402');
  });
});

describe('self-hosted mode with an admin key and a rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    await clearOfMinuteEdge();
    server = await startTrawlServer({
      overrides: { apiKey: 'configured-key-0123456789', adminKey: ADMIN_KEY, rateLimit: { perMinute: 4 } },
    });
  });
  afterAll(() => server.stop());

  test('a key made by the admin API selects its workspace and stops working when revoked', async () => {
    const workspace = await server.post('/admin/workspaces', { name: 'Team', plan: 'free' }, admin);
    const key = await server.post(`/admin/workspaces/${workspace.body.id}/keys`, {}, admin);
    const auth = { authorization: `Bearer ${key.body.key}` };
    expect((await server.post('/v1/webhooks', { url: 'https://receiver.example.com/', events: ['crawl.completed'] }, auth)).status).toBe(
      201,
    );
    expect((await server.get('/v1/webhooks', auth)).body.total).toBe(1);
    expect((await server.get('/v1/webhooks', { authorization: 'Bearer configured-key-0123456789' })).body.total).toBe(0);
    await server.call(`/admin/keys/${key.body.id}`, { method: 'DELETE', headers: admin });
    expect((await server.get('/v1/webhooks', auth)).status).toBe(401);
  });

  test('the configured rate limit applies per workspace, with its headers', async () => {
    const auth = { authorization: 'Bearer configured-key-0123456789' };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await server.get('/v1/crawl/history', auth));
    // The test above spent one of the default workspace's four; the other workspace's requests count apart.
    expect(statuses.map((s) => s.status)).toEqual([200, 200, 200, 429, 429]);
    expect(statuses[0]!.headers.get('x-ratelimit-limit')).toBe('4');
    expect(statuses[4]!.headers.get('retry-after')).not.toBeNull();
    expect((await server.get('/health')).status).toBe(200);
  });
});

describe('keys never reach the logs; operator actions do', () => {
  test('creating, using and revoking keys at the most verbose level logs none of them, and each admin action one audit line', async () => {
    let lines = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines += chunk.toString();
        done();
      },
    });
    const server = await startTrawlServer({ logger: createLogger('trace', sink), overrides: { mode: 'cloud', adminKey: ADMIN_KEY } });
    try {
      const workspace = await server.post('/admin/workspaces', { name: 'Acme', plan: 'starter', credits: 5 }, admin);
      const made = await server.post(`/admin/workspaces/${workspace.body.id}/keys`, {}, admin);
      const key: string = made.body.key;
      const auth = { authorization: `Bearer ${key}` };
      expect((await server.post('/v1/scrape', { url: site.at('/page') }, auth)).status).toBe(200);
      expect((await server.post('/v1/scrape', { url: 'http://127.0.0.1:1/' }, auth)).status).toBe(422);
      await server.post('/v1/crawl', { url: 'not a url' }, auth);
      await server.call(`/admin/keys/${made.body.id}`, { method: 'DELETE', headers: admin });
      expect((await server.post('/v1/scrape', { url: site.at('/page') }, auth)).status).toBe(401);
      await server.get('/v1/usage', { authorization: `Bearer ${key}x` });
      await server.post(`/admin/workspaces/${workspace.body.id}/credits`, { credits: 7, note: 'top-up' }, admin);
      await server.call(`/admin/workspaces/${workspace.body.id}`, { method: 'PATCH', headers: admin, body: { plan: 'growth' } });
      expect(lines.length).toBeGreaterThan(0);
      // Every operator action is one structured audit line naming what changed, keys by id and suffix only.
      const audit = lines
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.audit);
      expect(audit.map((entry) => entry.audit)).toEqual([
        'workspace.create',
        'key.create',
        'key.revoke',
        'credits.grant',
        'workspace.update',
      ]);
      expect(audit.every((entry) => entry.actor === 'admin-api' && entry.workspace === workspace.body.id)).toBe(true);
      expect(audit[1]).toMatchObject({ keyId: made.body.id, suffix: key.slice(-4) });
      expect(audit[3]).toMatchObject({ credits: 7, note: 'top-up' });
      expect(audit[4]).toMatchObject({ changes: { plan: 'growth' } });
      expect(lines).not.toContain(key.slice('trawl_'.length, -4));
      expect(lines).not.toContain(ADMIN_KEY);
    } finally {
      await server.stop();
    }
  });
});
