/**
 * End to end, cloud mode on SQLite and (with TEST_DATABASE_URL) Postgres: U+0000 anywhere a caller
 * can put text — every kind of body field at any depth, query parameters, ids in paths, the admin
 * API — is answered 400 naming where it was (404 for an id, as an unknown id is), never 500 and
 * the same on both databases, because nothing holding it reaches a store.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { testDatabases } from '../helpers/databases.ts';
import { admin, ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startXApiServer, X_TEST_TOKEN, type XApiServer } from '../servers/x-api.ts';

const NUL = 'a\u0000b';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Bodies holding NUL, one per kind of field: [method, path, body, the field the answer names]. */
const BODIES: Array<[string, string, (ids: Ids) => unknown, string]> = [
  ['POST', '/v1/search', () => ({ query: NUL }), 'query'],
  ['POST', '/v1/scrape', () => ({ url: `http://127.0.0.1/${NUL}` }), 'url'],
  ['POST', '/v1/scrape', () => ({ url: 'http://127.0.0.1/', include_selectors: ['p', NUL] }), 'include_selectors[1]'],
  ['POST', '/v1/scrape', () => ({ url: 'http://127.0.0.1/', headers: { [NUL]: 'x' } }), 'headers.a\\u0000b'],
  [
    'POST',
    '/v1/extract',
    () => ({ urls: ['http://127.0.0.1/'], schema: { type: 'object', properties: { title: { type: 'string', description: NUL } } } }),
    'schema.properties.title.description',
  ],
  ['POST', '/v1/watch', () => ({ url: 'http://127.0.0.1/', name: NUL }), 'name'],
  ['PATCH', '/v1/watch/:watch', () => ({ name: NUL }), 'name'],
  ['POST', '/v1/social/monitors', () => ({ kind: 'keyword', target: NUL, name: 'n' }), 'target'],
  ['POST', '/v1/social/monitors', () => ({ kind: 'keyword', target: 'tides', keyword: NUL }), 'keyword'],
  ['POST', '/v1/webhooks', () => ({ url: 'http://127.0.0.1/hook', events: [NUL] }), 'events[0]'],
  ['POST', '/v1/crawl', () => ({ url: 'http://127.0.0.1/', include_paths: [NUL] }), 'include_paths[0]'],
  ['POST', '/v1/keys', () => ({ name: NUL }), 'name'],
  ['POST', '/admin/workspaces', () => ({ name: NUL, plan: 'growth' }), 'name'],
  ['PATCH', '/admin/workspaces/:workspace', () => ({ name: NUL }), 'name'],
  ['POST', '/admin/workspaces/:workspace/keys', () => ({ name: NUL }), 'name'],
  ['POST', '/admin/workspaces/:workspace/credits', () => ({ credits: 1, note: NUL }), 'note'],
];

/** Every route with an id in its path, with the message an unknown id gets. */
const ID_ROUTES: Array<[string, string]> = [
  ['GET', '/v1/watch/{}'],
  ['PATCH', '/v1/watch/{}'],
  ['DELETE', '/v1/watch/{}'],
  ['POST', '/v1/watch/{}/check'],
  ['GET', '/v1/watch/{}/diff'],
  ['GET', '/v1/crawl/{}'],
  ['DELETE', '/v1/crawl/{}'],
  ['GET', '/v1/crawl/{}/pages'],
  ['GET', '/v1/crawl/{}/stream'],
  ['POST', '/v1/crawl/{}/retry'],
  ['GET', '/v1/batch/{}'],
  ['DELETE', '/v1/batch/{}'],
  ['GET', '/v1/webhooks/{}'],
  ['PATCH', '/v1/webhooks/{}'],
  ['DELETE', '/v1/webhooks/{}'],
  ['GET', '/v1/webhooks/{}/deliveries'],
  ['GET', '/v1/social/monitors/{}'],
  ['PATCH', '/v1/social/monitors/{}'],
  ['DELETE', '/v1/social/monitors/{}'],
  ['POST', '/v1/social/monitors/{}/check'],
  ['GET', '/v1/lead/batch/{}'],
  ['GET', '/v1/results/{}'],
  ['GET', '/v1/results/run/{}'],
  ['PATCH', '/v1/keys/{}'],
  ['DELETE', '/v1/keys/{}'],
  ['GET', '/admin/workspaces/{}'],
  ['PATCH', '/admin/workspaces/{}'],
  ['GET', '/admin/workspaces/{}/keys'],
  ['POST', '/admin/workspaces/{}/keys'],
  ['POST', '/admin/workspaces/{}/credits'],
  ['DELETE', '/admin/keys/{}'],
];

/** Bodies an id route would accept, so that only the id can be what is wrong. */
const VALID_BODY: Record<string, unknown> = {
  'PATCH /v1/watch/{}': { name: 'n' },
  'PATCH /v1/webhooks/{}': { active: false },
  'PATCH /v1/social/monitors/{}': { name: 'n' },
  'PATCH /v1/keys/{}': { name: 'n' },
  'PATCH /admin/workspaces/{}': { name: 'n' },
  'POST /admin/workspaces/{}/keys': {},
  'POST /admin/workspaces/{}/credits': { credits: 1 },
  'POST /v1/crawl/{}/retry': {},
};

const QUERIES = [
  '/v1/results?endpoint=%00',
  '/v1/usage?endpoint=%00',
  '/v1/cache/lookup?url=http%3A%2F%2Fa%00b',
  '/v1/watch?limit=1&x%00=1',
  '/v1/results?endpoint=scrape&endpoint=%00',
];

interface Ids {
  watch: string;
  workspace: string;
}

for (const database of testDatabases()) {
  describe(`NUL characters and malformed ids (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let x: XApiServer;
    let key: Record<string, string>;
    const ids = {} as Ids;

    beforeAll(async () => {
      storage = await database.open();
      x = startXApiServer();
      server = await startTrawlServer({
        storage,
        overrides: { mode: 'cloud', adminKey: ADMIN_KEY },
        env: { TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: x.url },
      });
      const tenant = await cloudTenants(() => server).tenant('growth', 1000);
      key = bearer(tenant.key);
      ids.workspace = tenant.id;
      const watch = await server.post('/v1/watch', { url: 'http://127.0.0.1:1/page', interval_minutes: 60 }, key);
      expect(watch.status).toBe(201);
      ids.watch = watch.body.id;
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      await x.stop();
    });

    const headersFor = (path: string) => (path.startsWith('/admin') ? admin : key);
    const fill = (path: string) => path.replace(':watch', ids.watch).replace(':workspace', ids.workspace);

    test.each(BODIES)('%s %s: NUL in a body field is a 400 naming it', async (method, path, body, field) => {
      const answer = await server.call(fill(path), { method, headers: headersFor(path), body: body(ids) });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(`Invalid field ${field}: contains a NUL character`);
    });

    test('nothing holding NUL was stored: the watch keeps its name', async () => {
      expect((await server.get(`/v1/watch/${ids.watch}`, key)).body.name).not.toContain('\u0000');
    });

    test.each(ID_ROUTES)('%s %s: a malformed id answers as an unknown one', async (method, pattern) => {
      const call = (id: string) =>
        server.call(pattern.replace('{}', id), { method, headers: headersFor(pattern), body: VALID_BODY[`${method} ${pattern}`] });
      const unknown = await call(UNKNOWN);
      expect(unknown.status).toBe(404);
      for (const id of ['%00', `x${'%00'}y`, 'not-an-id', `${UNKNOWN.slice(0, -1)}%00`]) {
        const answer = await call(id);
        expect({ id, status: answer.status }).toEqual({ id, status: 404 });
        expect(typeof answer.body.error).toBe('string');
      }
    });

    test.each(QUERIES)('GET %s: NUL in a query string is a 400 naming the parameter', async (path) => {
      const answer = await server.get(path, key);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/^Invalid query parameter (\w+ |name)?.*contains a NUL character$/);
    });

    test('an id route still finds a real id', async () => {
      expect((await server.get(`/v1/watch/${ids.watch}`, key)).status).toBe(200);
      expect((await server.get(`/admin/workspaces/${ids.workspace}`, admin)).status).toBe(200);
    });
  });
}
