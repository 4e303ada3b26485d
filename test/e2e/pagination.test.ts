/**
 * One paging rule over every list of /v1 and the admin API, on SQLite and Postgres, in cloud mode
 * (which serves the self-hosted lists and the cloud-only ones: results, usage, admin): `limit` and
 * `offset` slice the list, `page`/`per_page` give the same slice, mixing them is a 400 naming both,
 * `total` counts the whole list, `next` is there exactly when more remain and following it gives the
 * next slice, and an unknown query parameter is a 400 — on list routes and on every other /v1
 * route too (a metered one refuses before charging), while /v2 keeps Firecrawl's leniency. A
 * self-hosted server runs the same rule through the runner's other branch.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { WebhookStoreToken } from '../../core/features/webhooks/store.ts';
import type { Storage } from '../../core/services.ts';
import { mountApi } from '../../server/app.ts';
import { refusesUnknownQuery } from '../../server/query.ts';
import { admin, ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startXApiServer, X_TEST_TOKEN, type XApiServer } from '../servers/x-api.ts';

setDefaultTimeout(60_000);

const SUBPAGES = ['/p1', '/p2', '/p3', '/p4', '/p5'];
const page = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>The tide turns twice a day at ${title}.</p>${links}</article></body></html>`;
/** What tells two items of a list apart: an id, or a crawl page's URL. */
const identity = (item: Record<string, unknown>) => String(item.id ?? item.url);

interface List {
  name: string;
  /** The list's path (with any filter it needs). */
  path: string;
  key: string;
  headers: Record<string, string>;
  /** Run status answers: the run's summary with one slice of its results (no `page`/`per_page` echo). */
  status?: boolean;
}

for (const database of testDatabases()) {
  describe(`one paging rule on every list (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let site: FixtureSite;
    let x: XApiServer;
    const lists: List[] = [];
    const { tenant, balance, until } = cloudTenants(() => server);
    const get = (path: string, headers: Record<string, string>) => server.get(path, headers);
    const join = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

    beforeAll(async () => {
      site = startFixtureSite({
        '/': page('Harbour', SUBPAGES.map((p) => `<a href="${p}">${p}</a>`).join(' ')),
        ...Object.fromEntries(SUBPAGES.map((p) => [p, page(`Harbour ${p}`)])),
      });
      x = startXApiServer();
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        env: { TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: x.url },
        overrides: { mode: 'cloud', adminKey: ADMIN_KEY, jobs: { pollIntervalMs: 50 } },
      });
      // Monitors, watches and webhooks in one workspace; runs, results and usage in another, so
      // background watch checks never add rows to the lists being sliced.
      const owner = await tenant('scale', 100_000);
      const registry = bearer(owner.key);
      const runs = bearer((await tenant('scale', 100_000)).key);
      for (let n = 0; n < 3; n++) await tenant('free', 0);

      for (let n = 0; n < 5; n++) {
        expect((await server.post('/v1/watch', { url: site.at(SUBPAGES[n]!), interval_minutes: 1440 }, registry)).status).toBe(201);
        expect(
          (await server.post('/v1/webhooks', { url: `https://hooks.example/${n}`, events: ['crawl.completed'] }, registry)).status,
        ).toBe(201);
        expect(
          (await server.post('/v1/social/monitors', { kind: 'search', target: `tide ${n}`, interval_minutes: 1440 }, registry)).status,
        ).toBe(201);
        expect((await server.post('/v1/keys', { name: `key ${n}`, role: n % 2 ? 'member' : 'admin' }, registry)).status).toBe(201);
      }
      const hook = (await get('/v1/webhooks?limit=1', registry)).body.webhooks[0];
      const webhooks = server.trawl.container.resolve(WebhookStoreToken);
      for (let attempt = 1; attempt <= 5; attempt++) {
        await webhooks.logDelivery({
          webhookId: hook.id,
          workspace: owner.id,
          messageId: crypto.randomUUID(),
          event: 'crawl.completed',
          url: hook.url,
          attempt,
          outcome: 'retrying',
          statusCode: 500,
          error: 'HTTP 500',
          durationMs: 3,
          nextAttemptAt: null,
        });
      }

      const started = [await server.post('/v1/crawl', { url: site.at('/'), max_pages: 6 }, runs)];
      for (const path of SUBPAGES.slice(0, 4)) started.push(await server.post('/v1/crawl', { url: site.at(path), max_pages: 1 }, runs));
      const batch = await server.post('/v1/batch', { urls: SUBPAGES.map((p) => site.at(p)) }, runs);
      for (const run of [...started, batch]) expect(run.status).toBe(202);
      const ended = async (path: string) => ['completed', 'failed'].includes((await get(path, runs)).body.status);
      for (const run of started) await until(() => ended(`/v1/crawl/${run.body.id}`));
      await until(() => ended(`/v1/batch/${batch.body.id}`));
      const crawl = started[0]!.body.id;

      lists.push(
        { name: 'watches', path: '/v1/watch', key: 'watches', headers: registry },
        { name: 'webhooks', path: '/v1/webhooks', key: 'webhooks', headers: registry },
        { name: 'webhook deliveries', path: `/v1/webhooks/${hook.id}/deliveries`, key: 'deliveries', headers: registry },
        { name: 'social monitors', path: '/v1/social/monitors', key: 'monitors', headers: registry },
        { name: 'crawl history', path: '/v1/crawl/history', key: 'crawls', headers: runs },
        { name: 'crawl pages', path: `/v1/crawl/${crawl}/pages`, key: 'data', headers: runs },
        { name: 'crawl pages, completed only', path: `/v1/crawl/${crawl}/pages?status=completed`, key: 'data', headers: runs },
        { name: 'crawl status', path: `/v1/crawl/${crawl}`, key: 'data', headers: runs, status: true },
        { name: 'batch status', path: `/v1/batch/${batch.body.id}`, key: 'data', headers: runs, status: true },
        { name: 'stored results', path: '/v1/results', key: 'results', headers: runs },
        { name: 'stored results of one endpoint', path: '/v1/results?endpoint=scrape', key: 'results', headers: runs },
        { name: 'usage runs', path: '/v1/usage', key: 'runs', headers: runs },
        { name: 'workspace keys', path: '/v1/keys', key: 'keys', headers: registry },
        { name: 'admin workspaces', path: '/admin/workspaces', key: 'workspaces', headers: admin },
      );
    });
    afterAll(async () => {
      await server?.stop();
      await storage?.close();
      await site?.stop();
      x?.stop();
    });

    test('every list slices by limit and offset, counts its total and links the next slice only while more remain', async () => {
      expect(lists).toHaveLength(14);
      for (const list of lists) {
        const everything = await get(join(list.path, 'limit=100'), list.headers);
        expect([list.name, everything.status]).toEqual([list.name, 200]);
        const all: string[] = everything.body[list.key].map(identity);
        const total: number = everything.body.total;
        expect([list.name, all.length >= 5, all.length]).toEqual([list.name, true, total]);
        expect([list.name, everything.body.next]).toEqual([list.name, undefined]);

        const slice = await get(join(list.path, 'limit=2&offset=1'), list.headers);
        expect([list.name, slice.body[list.key].map(identity)]).toEqual([list.name, all.slice(1, 3)]);
        expect([list.name, slice.body.total, slice.body.limit, slice.body.offset]).toEqual([list.name, total, 2, 1]);
        const nextPath = new URL(slice.body.next, server.url);
        expect([list.name, nextPath.searchParams.get('limit'), nextPath.searchParams.get('offset')]).toEqual([list.name, '2', '3']);
        const following = await get(slice.body.next, list.headers);
        expect([list.name, following.body[list.key].map(identity)]).toEqual([list.name, all.slice(3, 5)]);

        // Walking `next` from the default first slice reaches every item once, and the last slice has no `next`.
        const walked: string[] = [];
        for (
          let answer = (await get(join(list.path, 'limit=2'), list.headers)).body;
          ;
          answer = (await get(answer.next, list.headers)).body
        ) {
          walked.push(...answer[list.key].map(identity));
          if (!answer.next) break;
        }
        expect([list.name, walked]).toEqual([list.name, all]);
        const last = await get(join(list.path, `limit=2&offset=${total - 2}`), list.headers);
        expect([list.name, last.body[list.key].map(identity), last.body.next]).toEqual([list.name, all.slice(total - 2), undefined]);
        const beyond = await get(join(list.path, `offset=${total}`), list.headers);
        expect([list.name, beyond.status, beyond.body[list.key], beyond.body.next]).toEqual([list.name, 200, [], undefined]);

        const defaults = await get(list.path, list.headers);
        expect([list.name, defaults.body.limit, defaults.body.offset]).toEqual([list.name, 20, 0]);
      }
    });

    test('page and per_page are an alias of the same slice; mixing the two styles is a 400 naming the fields', async () => {
      for (const list of lists) {
        const spec = await get(join(list.path, 'limit=2&offset=2'), list.headers);
        const alias = await get(join(list.path, 'page=2&per_page=2'), list.headers);
        expect([list.name, alias.status, alias.body[list.key].map(identity)]).toEqual([list.name, 200, spec.body[list.key].map(identity)]);
        expect([list.name, alias.body.limit, alias.body.offset, alias.body.next]).toEqual([list.name, 2, 2, spec.body.next]);
        if (!list.status) expect([list.name, alias.body.page, alias.body.per_page, spec.body.page]).toEqual([list.name, 2, 2, 2]);

        const mixed = await get(join(list.path, 'limit=2&page=2'), list.headers);
        expect([list.name, mixed.status, mixed.body.error]).toEqual([
          list.name,
          400,
          expect.stringMatching(/^Query parameters limit, page mix two paging styles/),
        ]);
        const mixedOther = await get(join(list.path, 'offset=4&per_page=2'), list.headers);
        expect([list.name, mixedOther.status, mixedOther.body.error]).toEqual([
          list.name,
          400,
          expect.stringContaining('offset, per_page'),
        ]);
      }
    });

    test('bad paging values and unknown query parameters are 400s on every list', async () => {
      for (const list of lists) {
        for (const [query, error] of [
          ['limit=0', 'Invalid field limit: must be a whole number from 1 to 100'],
          ['limit=101', 'Invalid field limit: must be a whole number from 1 to 100'],
          ['offset=-1', 'Invalid field offset:'],
          ['limit=abc', 'Invalid field limit:'],
          ['per_page=500', 'Invalid field per_page:'],
          ['bogus=1', 'Unknown query parameter: bogus'],
          ['limt=5&sort=asc', 'Unknown query parameters: limt, sort'],
        ] as const) {
          const answer = await get(join(list.path, query), list.headers);
          expect([list.name, query, answer.status, answer.body.error]).toEqual([list.name, query, 400, expect.stringContaining(error)]);
        }
      }
    });

    test('50 social monitors: the default answer lists 20 and says there are more', async () => {
      const key = bearer((await tenant('scale', 100_000)).key);
      for (let n = 0; n < 50; n++)
        expect(
          (await server.post('/v1/social/monitors', { kind: 'search', target: `ferry ${n}`, interval_minutes: 1440 }, key)).status,
        ).toBe(201);
      const first = await get('/v1/social/monitors', key);
      expect(first.body.monitors).toHaveLength(20);
      expect(first.body).toMatchObject({ total: 50, limit: 20, offset: 0, next: '/v1/social/monitors?limit=20&offset=20' });
      const third = await get('/v1/social/monitors?limit=20&offset=40', key);
      expect([third.body.monitors.length, third.body.next]).toEqual([10, undefined]);
    });

    test('OpenAPI documents exactly the query parameters each route declares, paging through the shared components', async () => {
      const { routes } = mountApi(server.trawl);
      const doc = (await get('/openapi.json', {})).body;
      const resolve = (parameter: any) => (parameter.$ref ? doc.components.parameters[parameter.$ref.split('/').pop()] : parameter);
      const undocumented: Record<string, string[]> = {};
      let paged = 0;
      for (const route of routes.filter((r) => refusesUnknownQuery(r.path))) {
        const name = `${route.method} ${route.path}`;
        const operation = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[route.method.toLowerCase()];
        expect([name, operation === undefined]).toEqual([name, false]);
        const documented = (operation.parameters ?? [])
          .map(resolve)
          .filter((p: any) => p.in === 'query')
          .map((p: any) => p.name)
          .sort();
        const declared = Object.keys(route.query?.shape ?? {})
          .filter((key) => !undocumented[name]?.includes(key))
          .sort();
        expect([name, documented]).toEqual([name, declared]);
        expect([name, operation.responses[400] === undefined]).toEqual([name, false]);
        if (declared.includes('limit')) {
          paged++;
          expect([name, operation.parameters.filter((p: any) => p.$ref?.startsWith('#/components/parameters/')).length]).toEqual([name, 4]);
        }
      }
      expect(paged).toBe(12);
      expect(Object.keys(doc.components.parameters)).toEqual(['Limit', 'Offset', 'Page', 'PerPage']);
    });

    test('every other /v1 and admin route refuses unknown query parameters; a metered one before charging; /v2 does not check', async () => {
      const t = await tenant('scale', 50);
      const key = bearer(t.key);
      const scrape = await server.post('/v1/scrape?formats=html', { url: site.at('/p1') }, key);
      expect([scrape.status, scrape.body.error]).toEqual([400, 'Unknown query parameter: formats']);
      expect(await balance(t.id)).toBe(50);
      const watch = await server.post('/v1/watch', { url: site.at('/p2'), interval_minutes: 1440 }, key);
      for (const [method, path] of [
        ['GET', `/v1/watch/${watch.body.id}?verbose=1`],
        ['GET', `/v1/watch/${watch.body.id}/diff?since=yesterday`],
        ['GET', '/v1/plugins?all=1'],
        ['GET', `/v1/cache/lookup?url=${encodeURIComponent(site.at('/p1'))}&fresh=1`],
        ['DELETE', `/v1/watch/${watch.body.id}?force=1`],
        ['GET', '/v1/crawl/00000000-0000-0000-0000-000000000000/stream?from=3'],
      ] as const) {
        const answer = await server.call(path, { method, headers: key });
        expect([path, answer.status, answer.body.error]).toEqual([path, 400, expect.stringMatching(/^Unknown query parameter: /)]);
      }
      const adminAnswer = await get(`/admin/workspaces/${t.id}?expand=keys`, admin);
      expect([adminAnswer.status, adminAnswer.body.error]).toEqual([400, 'Unknown query parameter: expand']);
      // A declared parameter still works where it is declared.
      expect((await get(`/v1/watch/${watch.body.id}/diff?from=x&to=y`, key)).body.error).not.toContain('Unknown query parameter');
      // Firecrawl's /v2 shape is unchanged: it ignores what it does not read.
      const v2 = await server.post('/v2/scrape?formats=html', { url: site.at('/p1') }, key);
      expect(v2.status).toBe(200);
    });
  });
}

describe('the same rule on a self-hosted server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTrawlServer();
  });
  afterAll(() => server.stop());

  test('paging, the alias, mixing and unknown parameters', async () => {
    for (let n = 0; n < 3; n++) await server.post('/v1/webhooks', { url: `https://hooks.example/s${n}`, events: ['crawl.completed'] });
    const all = (await server.get('/v1/webhooks')).body;
    expect(all).toMatchObject({ total: 3, limit: 20, offset: 0, page: 1, per_page: 20 });
    const slice = (await server.get('/v1/webhooks?limit=1&offset=1')).body;
    expect([slice.webhooks[0].id, slice.next]).toEqual([all.webhooks[1].id, '/v1/webhooks?limit=1&offset=2']);
    expect((await server.get('/v1/webhooks?page=2&per_page=1')).body.webhooks[0].id).toBe(all.webhooks[1].id);
    expect((await server.get('/v1/webhooks?limit=1&per_page=1')).status).toBe(400);
    expect((await server.get('/v1/webhooks?cursor=abc')).body).toEqual({ error: 'Unknown query parameter: cursor' });
    expect((await server.get('/v1/crawl/history?bogus')).body).toEqual({ error: 'Unknown query parameter: bogus' });
    expect((await server.get('/health?verbose=1')).status).not.toBe(400);
  });
});
