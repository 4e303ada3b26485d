/**
 * POST /v1/endpoints end to end against fixture pages on 127.0.0.1 (host names through
 * fetch.resolve): inline scripts, a minified bundle, template literals and a GraphQL client, a
 * bundle no parser reads, one with a syntax error, a source map with library files, a bundle that
 * 404s, a third-party script, static assets that must not appear, more than 20 bundles,
 * validation, the SSRF guard, the size cap and the scan time limit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const file = (name: string) => readFileSync(new URL(`../fixtures/endpoints/${name}`, import.meta.url), 'utf8');
const js = (body: string) => ({ body, headers: { 'content-type': 'application/javascript' } });

const MANY = 25;
const manyPage = `<html><body>${Array.from({ length: MANY }, (_, i) => `<script src="/many/chunk-${i + 1}.js"></script>`).join('')}</body></html>`;
const manyChunks = Object.fromEntries(
  Array.from({ length: MANY }, (_, i) => [`/many/chunk-${i + 1}.js`, js(`fetch("/api/chunk/${i + 1}")`)]),
);
// A parser's worst case: nesting deep enough to exhaust its stack, then a request the string scanner still finds.
const hostile = `${'('.repeat(100_000)}1${')'.repeat(100_000)};fetch("/api/after-the-nesting");`;

let site: FixtureSite;
let trawl: TestServer;
let tight: TestServer;
let strict: TestServer;
let slow: TestServer;
let cloud: TestServer;
const ADMIN = { authorization: 'Bearer admin-key-for-endpoint-tests-0123' };

beforeAll(async () => {
  site = startFixtureSite({
    '/': (_, self) =>
      new Response(file('index.html').replaceAll('{{port}}', String(self.port)), { headers: { 'content-type': 'text/html' } }),
    '/assets/app.min.js': js(file('app.min.js')),
    '/assets/graphql.js': js(file('graphql.js')),
    '/assets/broken.js': js(file('broken.js')),
    '/assets/legacy.js': js(file('legacy.js')),
    '/assets/bundle.js': js(file('bundle.js')),
    '/assets/bundle.js.map': { body: file('bundle.js.map'), headers: { 'content-type': 'application/json' } },
    '/lib.js': js(file('lib.js')),
    '/many': manyPage,
    ...manyChunks,
    '/hostile': '<script src="/hostile.js"></script><script>fetch("/api/inline-ok")</script>',
    '/hostile.js': js(hostile),
    '/big': `<script src="/big.js"></script>`,
    '/big.js': js(`fetch("/api/early");${' '.repeat(200_000)}fetch("/api/late");`),
    '/huge': `<script src="/huge.js"></script>`,
    '/huge.js': js(Array.from({ length: 40_000 }, (_, i) => `fetch("/api/item/" + ${i});`).join('\n')),
  });
  const resolve = { 'site.test': '127.0.0.1', 'cdn.other.test': '127.0.0.1' };
  trawl = await startTrawlServer({ overrides: { fetch: { resolve } } });
  tight = await startTrawlServer({ overrides: { fetch: { resolve }, endpoints: { maxBundleBytes: 100_000 } } });
  slow = await startTrawlServer({ overrides: { fetch: { resolve }, endpoints: { scanTimeoutMs: 20 } } });
  strict = await startTrawlServer({ overrides: { fetch: { allowPrivateNetwork: false } } });
  cloud = await startTrawlServer({ overrides: { mode: 'cloud', adminKey: ADMIN.authorization.slice(7), fetch: { resolve } } });
});
afterAll(async () => {
  await Promise.all([trawl.stop(), tight.stop(), strict.stop(), slow.stop(), cloud.stop(), site.stop()]);
});

const page = (path = '/') => `http://site.test:${site.port}${path}`;
interface Answer {
  url: string;
  bundles_scanned: number;
  endpoint_count: number;
  endpoints: Array<{ value: string; kind: string; first_party: boolean; source: string }>;
  hosts: string[];
  truncated: boolean;
  warnings?: string[];
}

describe('POST /v1/endpoints', () => {
  test('finds first-party endpoints in inline scripts, bundles and a source map; no assets, libraries or third parties', async () => {
    const res = await trawl.post('/v1/endpoints', { url: page() });
    expect(res.status).toBe(200);
    const body = res.body as Answer;
    expect(body.url).toBe(page());
    // app.min.js, graphql.js, broken.js, legacy.js, bundle.js, lib.js (missing.js answered 404)
    expect(body.bundles_scanned).toBe(6);
    expect(body.truncated).toBe(false);
    const bySource = Object.fromEntries(body.endpoints.map((e) => [e.value, `${e.kind} ${e.first_party} ${e.source}`]));
    expect(bySource).toEqual({
      // inline: a request call and an `apiBase` option
      'https://api.site.test/v1': 'absolute_url true inline',
      '/api/session': 'relative_path true inline',
      // minified: concatenations with a minified constant, XHR, a client's get, jQuery, a WebSocket built from location, a beacon
      '/api/v2': 'relative_path true app.min.js',
      '/api/v2/users/{n}': 'relative_path true app.min.js',
      '/api/v2/upload': 'relative_path true app.min.js',
      '/api/v2/products': 'relative_path true app.min.js',
      '/legacy/cart.php': 'relative_path true app.min.js',
      '/live/updates': 'web_socket true app.min.js',
      '/metrics/collect': 'relative_path true app.min.js',
      // template literals and GraphQL (graphql.js is both preloaded and loaded: scanned once)
      '/graphql': 'graph_ql true graphql.js',
      'https://api.site.test/v1/items/{id}': 'absolute_url true graphql.js',
      'wss://realtime.site.test/socket': 'web_socket true graphql.js',
      '/api/events/{id}': 'relative_path true graphql.js',
      // no parser reads broken.js: the string scanner does
      '/api/broken/fallback': 'relative_path true broken.js',
      'https://api.site.test/v3/recovered': 'absolute_url true broken.js',
      // one syntax error: the tolerant parser
      '/legacy/api/list.json': 'relative_path true legacy.js',
      '/legacy/api/save': 'relative_path true legacy.js',
      // the minified bundle: its base is only known at run time, the path after it is kept
      '/orders/{t}': 'relative_path true bundle.js',
      // the source map's own file (its node_modules and bundler runtime left out)
      '/api/v1/orders': 'relative_path true bundle.js',
      '/api/v1/orders/{id}': 'relative_path true bundle.js',
      '/api/v1/orders/{id}/cancel': 'relative_path true bundle.js',
      // a third-party script's relative request goes to this page's origin
      '/api/third-party-relative': 'relative_path true lib.js',
    });
    const values = body.endpoints.map((e) => e.value).join(' ');
    for (const absent of [
      '.png',
      '.svg',
      '.woff2',
      '.css',
      '.jpg',
      'about-us',
      'w3.org',
      'library-noise',
      'bootstrap-noise',
      'not-a-script',
      'payments.example',
      'collect.other.test',
      'docs.site.test',
    ]) {
      expect(values).not.toContain(absent);
    }
    expect(body.endpoint_count).toBe(body.endpoints.length);
    expect(body.hosts.sort()).toEqual(['api.site.test', 'realtime.site.test', 'site.test']);
    expect(body.warnings).toEqual(
      expect.arrayContaining([
        'missing.js: not scanned (HTTP 404)',
        'broken.js: read by scanner.strings (scanner.javascript could not read it)',
        expect.stringMatching(/^legacy\.js: read by the tolerant parser/),
      ]),
    );
  });

  test('include_third_party adds other registrable domains, marked first_party false', async () => {
    const body = (await trawl.post('/v1/endpoints', { url: page(), include_third_party: true })).body as Answer;
    expect(body.endpoints).toEqual(
      expect.arrayContaining([
        { value: 'https://api.payments.example/v1/charges', kind: 'absolute_url', first_party: false, source: 'graphql.js' },
        { value: 'https://collect.other.test/api/collect', kind: 'absolute_url', first_party: false, source: 'lib.js' },
      ]),
    );
    expect(body.hosts).toEqual(expect.arrayContaining(['api.payments.example', 'collect.other.test']));
  });

  test('reads at most max_bundles bundles (20 by default) and says more were left', async () => {
    const all = (await trawl.post('/v1/endpoints', { url: page('/many') })).body as Answer;
    expect(all).toMatchObject({ bundles_scanned: 20, endpoint_count: 20, truncated: true });
    expect(all.endpoints.map((e) => e.value)).toEqual(Array.from({ length: 20 }, (_, i) => `/api/chunk/${i + 1}`));
    const three = (await trawl.post('/v1/endpoints', { url: page('/many'), max_bundles: 3 })).body as Answer;
    expect(three).toMatchObject({ bundles_scanned: 3, endpoint_count: 3, truncated: true });
    expect(three.endpoints[2]).toEqual({ value: '/api/chunk/3', kind: 'relative_path', first_party: true, source: 'chunk-3.js' });
  });

  test('a bundle that exhausts the parser falls to the string scanner', async () => {
    const body = (await trawl.post('/v1/endpoints', { url: page('/hostile') })).body as Answer;
    expect(body.endpoints.map((e) => e.value).sort()).toEqual(['/api/after-the-nesting', '/api/inline-ok']);
  });

  test('a bundle over the size cap is scanned as far as read, with a warning', async () => {
    const body = (await tight.post('/v1/endpoints', { url: page('/big') })).body as Answer;
    expect(body.endpoints.map((e) => e.value)).toEqual(['/api/early']);
    expect(body.warnings).toContain('big.js: read up to 100000 bytes (endpoints.maxBundleBytes)');
  });

  test('a source whose scan passes scanTimeoutMs stops its worker and fails the call with a 422 naming the limit', async () => {
    const res = await slow.post('/v1/endpoints', { url: page('/huge') });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'Scanning huge.js took longer than 20 ms (endpoints.scanTimeoutMs)' });
    // The server goes on: the content workers (one of them replaced) still answer.
    expect((await slow.post('/v1/scrape', { url: page('/many'), formats: ['text'] })).status).toBe(200);
  }, 15_000); // a replaced worker boots again: seconds on a loaded machine

  test('validates the request', async () => {
    expect(await trawl.post('/v1/endpoints', {})).toMatchObject({ status: 400, body: { error: 'Missing required field: url' } });
    const tooMany = await trawl.post('/v1/endpoints', { url: page(), max_bundles: 21 });
    expect(tooMany.status).toBe(400);
    expect((tooMany.body as { error: string }).error).toContain('max_bundles');
    expect((await trawl.post('/v1/endpoints', { url: page(), include_third_party: 'yes' })).status).toBe(400);
    expect((await trawl.post('/v1/endpoints', { url: 'ftp://site.test/' })).status).toBe(400);
  });

  test('the page is fetched under the SSRF guard', async () => {
    const res = await strict.post('/v1/endpoints', { url: site.at('/') });
    expect(res.status).toBe(422);
    expect((res.body as { error: string }).error).toContain('Failed to fetch URL');
  });

  test('cloud mode charges 1 credit per call; the call is in the OpenAPI document', async () => {
    const workspace = await cloud.post('/admin/workspaces', { name: 'endpoints', plan: 'starter', credits: 1 }, ADMIN);
    const key = await cloud.post(`/admin/workspaces/${(workspace.body as { id: string }).id}/keys`, '', ADMIN);
    const bearer = { authorization: `Bearer ${(key.body as { key: string }).key}` };
    const first = await cloud.post('/v1/endpoints', { url: page('/many'), max_bundles: 1 }, bearer);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-credits-used')).toBe('1');
    expect(first.headers.get('x-credits-remaining')).toBe('0');
    expect(await cloud.post('/v1/endpoints', { url: page('/many'), max_bundles: 1 }, bearer)).toMatchObject({
      status: 402,
      body: { error: 'Insufficient credits' },
    });
    const openapi = (await trawl.get('/openapi.json')).body as { paths: Record<string, { post?: { responses: Record<string, unknown> } }> };
    expect(Object.keys(openapi.paths['/v1/endpoints']?.post?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '422']));
  });
});
