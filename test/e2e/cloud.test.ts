/**
 * Cloud mode over HTTP, on SQLite and Postgres: workspaces and keys made through the admin API,
 * charging (credit headers, 50 concurrent scrapes against 10 credits, 402 before any work, refunds),
 * keys revoked at once (in this server and in a second one sharing the database), plan checks (403
 * on a paid route for free and lapsed workspaces; lapsed ones still read), rate limits (429 with
 * its headers), the usage log and results endpoints, a crawl that runs out of credits, and the
 * isolation of every workspace-scoped route. The same routes in self-hosted mode are in
 * cloud-self-hosted.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { Storage } from '../../core/services.ts';
import { defineRoutes } from '../../server/route.ts';
import { builtinRoutes } from '../../server/routes/index.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startSearxngServer, type SearxngServer } from '../servers/searxng.ts';

const ADMIN_KEY = 'admin-key-for-tests-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
/** Rate limits count per calendar minute: a few requests should not straddle two. */
const clearOfMinuteEdge = async () => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 57_000) await Bun.sleep(60_500 - intoMinute);
};
const PAGE =
  '<!doctype html><html><head><title>Tides</title></head><body><article><h1>Tides</h1><p>The sea rises and falls twice a day.</p></article></body></html>';

/** A paid feature as a later route module declares one: the guard is the runner's, not the route's. */
const paidFixture = defineRoutes({
  name: 'paid-fixture',
  needs: {},
  routes: () => [{ method: 'GET', path: '/v1/fixture/paid', paid: 'Social monitoring', handle: () => ({ ok: true }) }],
});

interface Tenant {
  id: string;
  key: string;
  keyId: string;
}

for (const database of testDatabases()) {
  describe(`cloud mode (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let site: FixtureSite;
    let crawlSite: CrawlSite;
    let searx: SearxngServer;

    const tenant = async (plan: string, credits: number, extra: Record<string, unknown> = {}): Promise<Tenant> => {
      const workspace = await server.post('/admin/workspaces', { name: `${plan} workspace`, plan, credits, ...extra }, admin);
      expect(workspace.status).toBe(201);
      const key = await server.post(`/admin/workspaces/${workspace.body.id}/keys`, '', admin);
      expect(key.status).toBe(201);
      return { id: workspace.body.id, key: key.body.key, keyId: key.body.id };
    };
    const balance = async (t: Tenant) => (await server.get(`/admin/workspaces/${t.id}`, admin)).body.credits;
    const scrape = (t: Tenant, url = site.at('/page')) => server.post('/v1/scrape', { url }, bearer(t.key));
    const waitForRun = async (t: Tenant, path: string) => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(50)) {
        const res = await server.get(`${path}?per_page=100`, bearer(t.key));
        if (['completed', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
      }
      throw new Error(`${path} did not end`);
    };

    beforeAll(async () => {
      site = startFixtureSite({ '/page': PAGE, '/other': PAGE.replace('Tides', 'Waves') });
      crawlSite = await startCrawlSite({ pages: 12, fanout: 3 });
      // Two results for any query: one page that scrapes, one that cannot be fetched.
      searx = startSearxngServer({
        results: () => [
          { url: site.at('/page'), title: 'Tides', snippet: 's' },
          { url: 'http://127.0.0.1:1/gone', title: 'Gone', snippet: 's' },
        ],
      });
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        overrides: {
          mode: 'cloud',
          adminKey: ADMIN_KEY,
          fetch: { resolve: crawlSite.resolve },
          crawl: { concurrency: 2 },
          plugins: { search: { searxng: { url: searx.url } } },
        },
        routes: [...builtinRoutes, paidFixture],
      });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      await site.stop();
      await crawlSite.stop();
      await searx.stop();
    });

    test('the admin API needs its own key; workspace keys are refused there and it answers for unknown ids', async () => {
      expect((await server.get('/admin/workspaces')).status).toBe(401);
      expect((await server.get('/admin/workspaces', { authorization: 'Bearer wrong-admin-key-000000' })).status).toBe(401);
      const t = await tenant('starter', 5);
      expect((await server.get('/admin/workspaces', bearer(t.key))).status).toBe(401);
      expect((await server.post('/admin/workspaces', { name: 'x', plan: 'gold' }, admin)).body.error).toContain('plan');
      expect((await server.get('/admin/workspaces/nope', admin)).status).toBe(404);
      expect((await server.post('/admin/workspaces/nope/credits', { credits: 5 }, admin)).status).toBe(404);
      const shown = await server.get(`/admin/workspaces/${t.id}`, admin);
      expect(shown.body).toMatchObject({
        id: t.id,
        plan: 'starter',
        status: 'active',
        credits: 5,
        rate_limit: null,
        rate_limit_per_minute: 120,
      });
      expect(shown.body.keys).toEqual([expect.objectContaining({ id: t.keyId, suffix: t.key.slice(-4), revoked_at: null })]);
      expect(JSON.stringify(shown.body)).not.toContain(t.key);
      expect((await server.get('/admin/workspaces', admin)).body.total).toBeGreaterThanOrEqual(1);
    });

    test('every request needs a valid key; a metered call carries its credits and usage id', async () => {
      expect((await server.post('/v1/scrape', { url: site.at('/page') })).status).toBe(401);
      expect((await server.post('/v1/scrape', { url: site.at('/page') }, bearer('trawl_not-a-key'))).body).toEqual({
        error: 'Invalid or missing API key',
      });
      const t = await tenant('starter', 5);
      const first = await scrape(t);
      expect(first.status).toBe(200);
      expect(first.body.markdown).toContain('Tides');
      expect(first.headers.get('x-credits-used')).toBe('1');
      expect(first.headers.get('x-credits-remaining')).toBe('4');
      expect(first.headers.get('x-ratelimit-limit')).toBe('120');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('119');
      const cached = await scrape(t);
      expect(cached.headers.get('x-trawl-cache')).toBe('hit');
      expect(cached.headers.get('x-credits-remaining')).toBe('3');
      const run = await server.get(`/v1/results/run/${cached.headers.get('x-usage-id')}`, bearer(t.key));
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({
        endpoint: 'scrape',
        url: site.at('/page'),
        data: { markdown: expect.stringContaining('Tides') },
        run: { credits: 1, status: 'succeeded' },
      });
      const bad = await server.post('/v1/scrape', { formats: ['markdown'] }, bearer(t.key));
      expect(bad).toMatchObject({ status: 400, body: { error: 'Missing required field: url' } });
      expect(bad.headers.get('x-credits-used')).toBe('0');
      expect(await balance(t)).toBe(3);
    });

    test('50 concurrent scrapes against a balance of 10: 10 succeed, 40 get 402, the balance ends at 0', async () => {
      const t = await tenant('growth', 10);
      const answers = await Promise.all(Array.from({ length: 50 }, () => scrape(t)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
      const refused = answers.filter((a) => a.status === 402);
      expect(refused).toHaveLength(40);
      expect(refused[0]!.body).toEqual({ error: 'Insufficient credits' });
      expect(refused.every((a) => a.headers.get('x-credits-used') === '0' && a.headers.get('x-credits-remaining') === '0')).toBe(true);
      expect(await balance(t)).toBe(0);
      const usage = await server.get('/v1/usage', bearer(t.key));
      expect(usage.body).toMatchObject({
        balance: 0,
        plan: 'growth',
        totals: { runs: 10, credits: 10, by_endpoint: [{ endpoint: 'scrape', runs: 10, credits: 10 }] },
      });
    });

    test('402 comes before any work: nothing is fetched', async () => {
      const t = await tenant('starter', 0);
      const before = site.hits.length;
      const answer = await server.post('/v1/scrape', { url: site.at('/other'), no_cache: true }, bearer(t.key));
      expect(answer).toMatchObject({ status: 402, body: { error: 'Insufficient credits' } });
      expect(site.hits.length).toBe(before);
    });

    test('a call that gives nothing is refunded and logged as failed', async () => {
      const t = await tenant('starter', 2);
      const failed = await server.post('/v1/scrape', { url: 'http://127.0.0.1:1/nothing' }, bearer(t.key));
      expect(failed.status).toBe(422);
      expect(failed.headers.get('x-credits-used')).toBe('0');
      expect(failed.headers.get('x-credits-remaining')).toBe('2');
      expect(await balance(t)).toBe(2);
      const usage = await server.get('/v1/usage', bearer(t.key));
      expect(usage.body.runs).toEqual([
        expect.objectContaining({
          endpoint: 'scrape',
          credits: 0,
          status: 'failed',
          error: expect.stringContaining('Failed to fetch URL'),
        }),
      ]);
      expect((await server.get(`/v1/results/run/${failed.headers.get('x-usage-id')}`, bearer(t.key))).status).toBe(404);
    });

    test('a revoked key is refused at once, here and in another server sharing the database', async () => {
      const t = await tenant('pro', 20);
      const other = await startTrawlServer({ storage, overrides: { mode: 'cloud' } });
      try {
        expect((await scrape(t)).status).toBe(200);
        expect((await other.post('/v1/scrape', { url: site.at('/page') }, bearer(t.key))).status).toBe(200);
        expect((await server.get('/v1/usage', bearer(t.key))).status).toBe(200);
        const revoked = await server.call(`/admin/keys/${t.keyId}`, { method: 'DELETE', headers: admin });
        expect(revoked.body.revoked_at).not.toBeNull();
        for (const s of [server, other]) {
          expect((await s.post('/v1/scrape', { url: site.at('/page') }, bearer(t.key))).status).toBe(401);
          expect((await s.get('/v1/usage', bearer(t.key))).status).toBe(401);
          expect((await s.post('/v1/scrape', { bad: true }, bearer(t.key))).status).toBe(401);
        }
        expect(await balance(t)).toBe(18);
      } finally {
        await other.stop();
      }
    });

    test('paid features answer 403 to free and lapsed workspaces; a lapsed one can still read its results', async () => {
      const free = await tenant('free', 5);
      const paid = await tenant('starter', 5);
      expect(await server.get('/v1/fixture/paid', bearer(free.key))).toMatchObject({
        status: 403,
        body: { error: 'Social monitoring requires a paid plan' },
      });
      expect(await server.get('/v1/fixture/paid', bearer(paid.key))).toMatchObject({ status: 200, body: { ok: true } });
      expect((await scrape(free)).status).toBe(200);
      const kept = await scrape(paid);
      expect(
        (await server.call(`/admin/workspaces/${paid.id}`, { method: 'PATCH', headers: admin, body: { status: 'lapsed' } })).body.status,
      ).toBe('lapsed');
      expect((await server.get('/v1/fixture/paid', bearer(paid.key))).status).toBe(403);
      const refused = await scrape(paid);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/lapsed.*requires a paid plan$/);
      expect((await server.get(`/v1/results/run/${kept.headers.get('x-usage-id')}`, bearer(paid.key))).status).toBe(200);
      expect((await server.get('/v1/results', bearer(paid.key))).body.total).toBe(1);
      expect((await server.get('/v1/usage', bearer(paid.key))).body).toMatchObject({ status: 'lapsed', balance: 4 });
    });

    test('past its rate limit a workspace gets 429 with Retry-After and X-RateLimit headers', async () => {
      const t = await tenant('starter', 100, { rate_limit: 3 });
      await clearOfMinuteEdge();
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await server.get('/v1/results', bearer(t.key)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
      const limited = answers[3]!;
      expect(limited.body.error).toMatch(/^Rate limit exceeded: 3 requests per minute/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      expect((await scrape(t)).status).toBe(429);
      expect(await balance(t)).toBe(100);
    });

    test('a crawl is charged per page and stops with a clear status when the workspace runs dry', async () => {
      const t = await tenant('scale', 3);
      const started = await server.post('/v1/crawl', { url: crawlSite.url('/'), max_pages: 12 }, bearer(t.key));
      expect(started.status).toBe(202);
      expect(started.headers.get('x-credits-used')).toBe('0');
      const run = await waitForRun(t, `/v1/crawl/${started.body.id}`);
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/^Insufficient credits: the workspace ran out of credits after \d+ pages?$/);
      expect(run.completed).toBeLessThanOrEqual(3);
      expect(run.completed).toBeGreaterThan(0);
      // Pages charged while the run was being stopped are refunded when their jobs end, a moment later.
      for (const deadline = Date.now() + 10_000; (await balance(t)) !== 3 - run.completed && Date.now() < deadline; ) await Bun.sleep(50);
      expect(await balance(t)).toBe(3 - run.completed);
      const usage = await server.get('/v1/usage?endpoint=crawl', bearer(t.key));
      expect(usage.body.runs).toEqual([
        expect.objectContaining({ endpoint: 'crawl', run_id: started.body.id, credits: run.completed, status: 'succeeded' }),
      ]);
      expect((await server.post('/v1/crawl', { url: crawlSite.url('/') }, bearer(t.key))).status).toBe(3 - run.completed > 0 ? 202 : 402);
    });

    test('every workspace-scoped route answers only its own workspace', async () => {
      const a = await tenant('growth', 20);
      const b = await tenant('growth', 20);
      const scraped = await scrape(a, site.at('/other'));
      const resultId = (await server.get(`/v1/results/run/${scraped.headers.get('x-usage-id')}`, bearer(a.key))).body.id;
      const crawl = await server.post('/v1/crawl', { url: crawlSite.url('/'), max_pages: 2 }, bearer(a.key));
      const batch = await server.post('/v1/batch', { urls: [site.at('/page')] }, bearer(a.key));
      const hook = await server.post(
        '/v1/webhooks',
        { url: 'https://receiver.example.com/hook', events: ['crawl.completed'] },
        bearer(a.key),
      );
      await waitForRun(a, `/v1/crawl/${crawl.body.id}`);
      await waitForRun(a, `/v1/batch/${batch.body.id}`);
      const own = bearer(a.key);
      const foreign = bearer(b.key);
      const paths = [
        `/v1/crawl/${crawl.body.id}`,
        `/v1/crawl/${crawl.body.id}/pages`,
        `/v1/batch/${batch.body.id}`,
        `/v1/webhooks/${hook.body.id}`,
        `/v1/webhooks/${hook.body.id}/deliveries`,
        `/v1/results/${resultId}`,
        `/v1/results/run/${scraped.headers.get('x-usage-id')}`,
        `/v1/cache/lookup?url=${encodeURIComponent(site.at('/other'))}`,
      ];
      for (const path of paths) {
        expect({ path, status: (await server.get(path, own)).status }).toEqual({ path, status: 200 });
        expect({ path, status: (await server.get(path, foreign)).status }).toEqual({ path, status: 404 });
      }
      expect((await server.call(`/v1/webhooks/${hook.body.id}`, { method: 'DELETE', headers: foreign })).status).toBe(404);
      expect((await server.call(`/v1/crawl/${crawl.body.id}`, { method: 'DELETE', headers: foreign })).status).toBe(404);
      expect((await server.post(`/v1/crawl/${crawl.body.id}/retry`, {}, foreign)).status).toBe(404);
      expect((await server.get('/v1/crawl/history', foreign)).body.total).toBe(0);
      expect((await server.get('/v1/webhooks', foreign)).body.total).toBe(0);
      expect((await server.get('/v1/results', foreign)).body.total).toBe(0);
      const usageB = await server.get('/v1/usage', foreign);
      expect(usageB.body).toMatchObject({ workspace: { id: b.id }, balance: 20, totals: { runs: 0, credits: 0 }, runs: [] });
      const usageA = await server.get('/v1/usage', own);
      expect(usageA.body.runs.map((r: any) => r.endpoint).sort()).toEqual(['batch', 'crawl', 'scrape']);
    });

    test('a search is charged for its query and the result pages it delivered; the rest goes back', async () => {
      const t = await tenant('growth', 10);
      const answer = await server.post('/v1/search', { query: 'tides', num_results: 5 }, bearer(t.key));
      expect(answer.status).toBe(200);
      expect(answer.body.results.filter((r: any) => r.markdown)).toHaveLength(1);
      // Charged 1 + 5 up front; 4 result pages were not delivered (3 never listed, 1 failed).
      expect(answer.headers.get('x-credits-used')).toBe('2');
      expect(answer.headers.get('x-credits-remaining')).toBe('8');
      expect(await balance(t)).toBe(8);
      const usage = await server.get('/v1/usage?endpoint=search', bearer(t.key));
      expect(usage.body.runs).toEqual([expect.objectContaining({ endpoint: 'search', credits: 2, status: 'succeeded' })]);
      const poor = await tenant('growth', 3);
      expect((await server.post('/v1/search', { query: 'tides', num_results: 5 }, bearer(poor.key))).status).toBe(402);
    });

    test('results and cache lookup: newest first, bounded pages, 404 for what is not there', async () => {
      const t = await tenant('pro', 10);
      await scrape(t, site.at('/page'));
      await server.post('/v1/scrape', { url: site.at('/page'), formats: ['text'] }, bearer(t.key));
      const list = await server.get('/v1/results?endpoint=scrape&per_page=1', bearer(t.key));
      expect(list.body).toMatchObject({ page: 1, per_page: 1, total: 2, next: '/v1/results?endpoint=scrape&limit=1&offset=1' });
      expect(list.body.results[0]).toEqual({
        id: expect.any(String),
        endpoint: 'scrape',
        url: site.at('/page'),
        created_at: expect.any(String),
      });
      expect((await server.get('/v1/results?per_page=101', bearer(t.key))).status).toBe(400);
      const lookup = await server.get(`/v1/cache/lookup?endpoint=scrape&url=${encodeURIComponent(site.at('/page'))}`, bearer(t.key));
      expect(lookup.body).toMatchObject({ id: list.body.results[0].id, data: { text: expect.stringContaining('Tides') } });
      expect((await server.get('/v1/cache/lookup', bearer(t.key))).body).toEqual({ error: 'Missing required field: url' });
      expect((await server.get(`/v1/cache/lookup?url=${encodeURIComponent(site.at('/never'))}`, bearer(t.key))).status).toBe(404);
      expect((await server.get('/v1/results/not-an-id', bearer(t.key))).status).toBe(404);
      expect((await server.get('/v1/usage?from=2030-01-01&to=2029-01-01', bearer(t.key))).status).toBe(400);
    });

    test('the OpenAPI document describes the cloud answers', async () => {
      const doc = (await server.get('/openapi.json')).body;
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/v1/usage',
          '/v1/results',
          '/v1/results/{id}',
          '/v1/results/run/{usage_log_id}',
          '/v1/cache/lookup',
          '/admin/workspaces',
        ]),
      );
      expect(doc.paths['/v1/scrape'].post.responses).toHaveProperty('402');
      expect(doc.paths['/v1/scrape'].post.responses['200'].headers).toHaveProperty('X-Credits-Remaining');
      expect(doc.paths['/v1/webhooks'].get.responses['429'].headers).toHaveProperty('Retry-After');
    });

    test('MCP tool calls are admitted and charged like their endpoints; /metrics counts the credits and needs the admin key', async () => {
      const metricsText = async () => String((await server.get('/metrics', admin)).body);
      const charged = (text: string) =>
        Number(
          parsePrometheusTextFormat(text)
            .find((f) => f.name === 'trawl_credits_charged_total')
            ?.metrics.find((m) => m.labels?.endpoint === 'scrape')?.value ?? 0,
        );
      const before = charged(await metricsText());
      const t = await tenant('starter', 1);
      const client = new Client({ name: 'cloud-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: bearer(t.key) } }));
      try {
        const first = (await client.callTool({ name: 'scrape', arguments: { url: site.at('/other') } })) as CallToolResult;
        expect(first.isError).toBeFalsy();
        expect(await balance(t)).toBe(0);
        const second = (await client.callTool({ name: 'scrape', arguments: { url: site.at('/other') } })) as CallToolResult;
        expect([second.isError, second.content]).toEqual([true, [{ type: 'text', text: 'Insufficient credits' }]]);
      } finally {
        await client.close();
      }
      expect(charged(await metricsText()) - before).toBe(1);
      // The service's numbers are not a workspace's to read.
      expect((await server.get('/metrics', bearer(t.key))).status).toBe(401);
    });
  });
}
