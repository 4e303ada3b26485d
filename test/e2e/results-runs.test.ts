/**
 * Every billed call can be read again (cloud mode, SQLite and Postgres): for each billable endpoint
 * the answer comes back from GET /v1/results/run/{usage id} and GET /v1/results/{id}, and from
 * GET /v1/cache/lookup for the endpoints keyed by a URL (a search by its query); an unknown
 * endpoint is a 400 naming the allowed ones; an answer over `results.maxOutputBytes` is answered
 * but not stored, and the retention prune deletes outputs older than `results.retentionDays`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { LOOKUP_ENDPOINTS } from '../../core/features/results/outputs.ts';
import { pruneResults } from '../../core/features/results/retention.ts';
import type { Storage } from '../../core/services.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';
import { startSearxngServer, type SearxngServer } from '../servers/searxng.ts';
import { startXApiServer, X_TEST_TOKEN, type XApiServer } from '../servers/x-api.ts';

const PAGE =
  '<!doctype html><html><head><title>Tides</title><script>fetch("/api/tides")</script></head><body><article><h1>Tides</h1>' +
  '<p>The sea rises and falls twice a day. Harbour Tides Ltd, info@tides.test, +44 20 7946 0958.</p><a href="/other">Other</a></article></body></html>';

/** A model that answers every schema it is asked for with a value of each property's type. */
function schemaModel(c: { schema?: Record<string, unknown> }): string {
  const properties = (c.schema?.properties ?? {}) as Record<string, { type?: string }>;
  const value = (type?: string) =>
    type === 'array' ? ['plain'] : type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : 'Tides';
  return JSON.stringify(Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, value(schema.type)])));
}

interface Case {
  endpoint: string;
  path: string;
  body: () => Record<string, unknown>;
  /** What GET /v1/cache/lookup finds it by; absent: not a lookup endpoint. */
  key?: () => string;
  /** The call answers a scrape result (stored in the internal model): compare what the /v1 shape shows. */
  scrape?: boolean;
}

for (const database of testDatabases()) {
  describe(`stored outputs of every billed call (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let site: FixtureSite;
    let searx: SearxngServer;
    let openai: OpenAiServer;
    let x: XApiServer;
    const { tenant } = cloudTenants(() => server);
    const url = (path = '/page') => site.at(path);

    const cases: Case[] = [
      { endpoint: 'scrape', path: '/v1/scrape', body: () => ({ url: url() }), key: () => url(), scrape: true },
      { endpoint: 'scrape', path: '/v2/scrape', body: () => ({ url: url('/other') }), key: () => url('/other'), scrape: true },
      { endpoint: 'crawl', path: '/v1/crawl', body: () => ({ url: url(), max_pages: 1 }), key: () => url() },
      { endpoint: 'batch', path: '/v1/batch', body: () => ({ urls: [url(), url('/other')] }) },
      { endpoint: 'map', path: '/v1/map', body: () => ({ url: url() }), key: () => url() },
      { endpoint: 'search', path: '/v1/search', body: () => ({ query: 'tides today' }), key: () => 'tides today' },
      { endpoint: 'search', path: '/v2/search', body: () => ({ query: 'tides tomorrow' }), key: () => 'tides tomorrow' },
      {
        endpoint: 'extract',
        path: '/v1/extract',
        body: () => ({ url: url(), schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } }),
        key: () => url(),
      },
      { endpoint: 'summarize', path: '/v1/summarize', body: () => ({ url: url() }), key: () => url() },
      { endpoint: 'diff', path: '/v1/diff', body: () => ({ url: url(), previous: 'The sea rises.' }), key: () => url() },
      { endpoint: 'brand', path: '/v1/brand', body: () => ({ url: url() }), key: () => url() },
      { endpoint: 'lead', path: '/v1/lead', body: () => ({ url: url() }), key: () => url() },
      { endpoint: 'lead_batch', path: '/v1/lead/batch', body: () => ({ urls: [url()] }) },
      { endpoint: 'endpoints', path: '/v1/endpoints', body: () => ({ url: url() }), key: () => url() },
      { endpoint: 'social.audience', path: '/v1/social/audience', body: () => ({ handle: 'harbour', max_pages: 1 }) },
    ];

    beforeAll(async () => {
      site = startFixtureSite({ '/page': PAGE, '/other': PAGE.replace('Tides</title>', 'Waves</title>') });
      searx = startSearxngServer({ results: () => [{ url: url(), title: 'Tides', snippet: 'twice a day' }] });
      openai = startOpenAiServer({ answer: schemaModel });
      x = startXApiServer();
      x.users.push({ id: '42', username: 'harbour', name: 'Harbour' }, { id: '43', username: 'gull', name: 'Gull' });
      x.followers.set('42', ['43']);
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        env: { TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: x.url },
        overrides: {
          mode: 'cloud',
          adminKey: ADMIN_KEY,
          jobs: { pollIntervalMs: 50 },
          results: { maxOutputBytes: 20_000 },
          plugins: {
            search: { searxng: { url: searx.url } },
            llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } },
          },
        },
      });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      site.stop();
      searx.stop();
      openai.stop();
      x.stop();
    });

    test('each billable endpoint: its answer comes back by run id, by result id and (keyed ones) by cache lookup', async () => {
      const t = await tenant('growth', 10_000);
      for (const c of cases) {
        const answer = await server.post(c.path, c.body(), bearer(t.key));
        expect([c.path, answer.status]).toEqual([c.path, expect.any(Number)]);
        expect([c.path, answer.status < 300]).toEqual([c.path, true]);
        const run = await server.get(`/v1/results/run/${answer.headers.get('x-usage-id')}`, bearer(t.key));
        expect([c.path, run.status]).toEqual([c.path, 200]);
        expect(run.body).toMatchObject({ endpoint: c.endpoint, run: { endpoint: c.endpoint, status: 'succeeded' } });
        // A map's answer names the stored result it is (`id`); the stored output is the rest.
        const { id: ownId, ...rest } = answer.body;
        const answered = ownId === run.body.id ? rest : answer.body;
        if (c.scrape) expect(run.body.data.metadata.title).toBe(c.path === '/v1/scrape' ? 'Tides' : 'Waves');
        else expect([c.path, run.body.data]).toEqual([c.path, answered]);
        const byId = await server.get(`/v1/results/${run.body.id}`, bearer(t.key));
        expect(byId.body.data).toEqual(run.body.data);
        if (!c.key) continue;
        const lookup = await server.get(`/v1/cache/lookup?endpoint=${c.endpoint}&url=${encodeURIComponent(c.key())}`, bearer(t.key));
        expect([c.path, lookup.status]).toEqual([c.path, 200]);
        if (!c.scrape) expect(lookup.body.data).toEqual(answered);
      }
      // Every lookup endpoint was exercised above; another workspace finds none of it.
      expect(new Set(cases.filter((c) => c.key).map((c) => c.endpoint))).toEqual(new Set(LOOKUP_ENDPOINTS));
      const other = await tenant('growth', 10);
      expect((await server.get(`/v1/cache/lookup?endpoint=extract&url=${encodeURIComponent(url())}`, bearer(other.key))).status).toBe(404);
    }, 120_000);

    test('an unknown endpoint is a 400 naming the allowed ones', async () => {
      const t = await tenant('growth', 10);
      const res = await server.get(`/v1/cache/lookup?endpoint=bogus&url=${encodeURIComponent(url())}`, bearer(t.key));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`Invalid field endpoint: endpoint must be one of: ${LOOKUP_ENDPOINTS.join(', ')}`);
    });

    test('an answer over results.maxOutputBytes is answered in full, not stored, and its run says why', async () => {
      const t = await tenant('growth', 100);
      const big = await server.post('/v1/diff', { url: url(), previous: 'Harbour notes. '.repeat(2000) }, bearer(t.key));
      expect(big.status).toBe(200);
      expect(JSON.stringify(big.body).length).toBeGreaterThan(20_000);
      const run = await server.get(`/v1/results/run/${big.headers.get('x-usage-id')}`, bearer(t.key));
      expect(run.status).toBe(404);
      expect(run.body.error).toContain('larger than results.maxOutputBytes');
    });

    test('a scrape with store_in_cache false keeps no copy of the answer either', async () => {
      const t = await tenant('growth', 100);
      const res = await server.post('/v1/scrape', { url: url('/other'), store_in_cache: false, no_cache: true }, bearer(t.key));
      expect(res.status).toBe(200);
      expect((await server.get(`/v1/results/run/${res.headers.get('x-usage-id')}`, bearer(t.key))).status).toBe(404);
    });

    test('the retention prune deletes outputs older than results.retentionDays, and only those', async () => {
      const t = await tenant('growth', 100);
      const res = await server.post('/v1/summarize', { url: url() }, bearer(t.key));
      const id = (await server.get(`/v1/results/run/${res.headers.get('x-usage-id')}`, bearer(t.key))).body.id as string;
      expect(await pruneResults(storage.db, 30)).toBe(0);
      expect((await server.get(`/v1/results/${id}`, bearer(t.key))).status).toBe(200);
      expect(await pruneResults(storage.db, 0, { now: Date.now() + 40 * 86_400_000 })).toBe(0);
      expect(await pruneResults(storage.db, 30, { now: Date.now() + 31 * 86_400_000 })).toBeGreaterThan(0);
      expect((await server.get(`/v1/results/${id}`, bearer(t.key))).status).toBe(404);
    });
  });
}
