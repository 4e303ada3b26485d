/**
 * End to end: crawls of the generated fixture site over HTTP — a full crawl with every kind of
 * duplicate, loop, redirect, robots rule and document the site has, then each option
 * (max_depth, max_pages, include/exclude paths, subdomains with Crawl-delay, external links,
 * scrape_options), and input validation.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { spacingShortfalls, stretched } from '../helpers/load.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { allResults, pathOf, waitForRun } from '../fixtures/crawl-site/runs.ts';

// Crawls of real servers on a shared, busy machine: minutes, not the default 5 s.
setDefaultTimeout(120_000);

let site: CrawlSite;
let server: TestServer;

beforeAll(async () => {
  site = await startCrawlSite({ pages: 250, extras: true });
  server = await startTrawlServer({
    overrides: {
      fetch: { resolve: site.resolve },
      // Fresh fetches every time, so the fixture's hit log shows what each crawl fetched.
      storage: { cacheTtlSeconds: 0 },
      jobs: { pollIntervalMs: 50, retryBaseMs: 200 },
      crawl: { concurrency: 8, perHostConcurrency: 8 },
    },
  });
}, 30_000);
afterAll(async () => {
  await server.stop();
  await site.stop();
});

async function crawl(body: Record<string, unknown>): Promise<{ summary: any; results: any[] }> {
  const res = await server.post('/v1/crawl', body);
  expect(res.status).toBe(202);
  const summary = await waitForRun(server, `/v1/crawl/${res.body.id}`);
  const results = await allResults(server, `/v1/crawl/${res.body.id}/pages?per_page=100`);
  return { summary, results };
}

const sorted = (paths: Iterable<string>) => [...paths].sort();

describe('a full crawl', () => {
  let summary: any;
  let results: any[];
  let id: string;
  const hitsBefore = new Map<string, number>();

  beforeAll(async () => {
    for (const path of ['/flaky', '/private/secret', '/trawl-excluded/page', '/old-docs']) hitsBefore.set(path, site.hitCount(path));
    const res = await server.post('/v1/crawl', { url: site.url('/'), max_pages: 1000 });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/v1/crawl/${res.body.id}`);
    expect(res.body).toMatchObject({ status: 'queued', url: site.url('/') });
    id = res.body.id;
    summary = await waitForRun(server, `/v1/crawl/${id}`);
    results = await allResults(server, `/v1/crawl/${id}/pages?per_page=37`);
  }, 120_000);

  test('every page of the site exactly once: fragments, slashes, query order and redirects dedupe', () => {
    const paths = results.map((r) => pathOf(r.url));
    expect(new Set(paths).size).toBe(paths.length);
    const expected = [...site.tree.pathsWithin(100), ...site.extraPaths];
    expect(sorted(paths)).toEqual(sorted(expected));
    expect(summary).toMatchObject({ id, status: 'completed', url: site.url('/'), total: expected.length });
    expect(summary.completed + summary.failed).toBe(expected.length);
    expect(summary.completed_at >= summary.created_at).toBe(true);
    expect(summary.error).toBeNull();
  });

  test('depth is the shortest link distance from the start page', () => {
    for (const result of results) {
      const treeId = site.tree.idOf(pathOf(result.url));
      if (treeId !== null) expect(result.depth).toBe(site.tree.depth(treeId));
    }
    expect(results.find((r) => pathOf(r.url) === '/loop/b').depth).toBe(2);
  });

  test('robots.txt rules for TrawlBot are obeyed; images and mail links are not followed; other hosts are not visited', () => {
    expect(site.hitCount('/private/secret')).toBe(hitsBefore.get('/private/secret')!);
    expect(site.hitCount('/trawl-excluded/page')).toBe(hitsBefore.get('/trawl-excluded/page')!);
    expect(site.hitCount('/img/photo.png')).toBe(0);
    expect(site.hits.some((h) => h.host === HOSTS.sub || h.host === HOSTS.external)).toBe(false);
    expect(site.hitCount('/robots.txt')).toBeGreaterThanOrEqual(1);
  });

  test('a redirect onto a page already in the crawl is not a second result; a redirect elsewhere keeps its final URL', () => {
    expect(site.hitCount('/old-docs')).toBe(hitsBefore.get('/old-docs')! + 1);
    const moved = results.find((r) => pathOf(r.url) === '/moved');
    expect(moved.metadata.final_url).toBe(site.url('/landing'));
    expect(results.some((r) => pathOf(r.url) === '/landing')).toBe(false);
  });

  test('a transient 503 is retried; a 404 page is kept with its status; results carry the default markdown only', () => {
    expect(site.hitCount('/flaky') - hitsBefore.get('/flaky')!).toBe(2);
    const flaky = results.find((r) => pathOf(r.url) === '/flaky');
    expect(flaky).toMatchObject({ status: 'completed', metadata: { status_code: 200 } });
    expect(results.find((r) => pathOf(r.url) === '/gone')).toMatchObject({ status: 'completed', metadata: { status_code: 404 } });
    const home = results.find((r) => pathOf(r.url) === '/');
    expect(home.markdown).toContain('# Harbour home');
    expect(home.links).toBeUndefined();
    expect(home.metadata.title).toBe('Harbour home');
  });

  test('a linked PDF goes through the document plugins', () => {
    const pdf = results.find((r) => pathOf(r.url) === '/files/report.pdf');
    const pdfPlugin = server.trawl.registry.active('document').some((p) => p.id === 'document.pdf');
    if (pdfPlugin) {
      expect(pdf.status).toBe('completed');
      expect(pdf.markdown).toContain('Quarterly tide report');
    } else {
      expect(pdf).toMatchObject({ status: 'failed', error: 'Unsupported content type: application/pdf' });
    }
  });

  test('the status answer has counts, timestamps, the first results and a next link', async () => {
    const res = await server.get(`/v1/crawl/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'status',
      'url',
      'total',
      'completed',
      'failed',
      'created_at',
      'updated_at',
      'completed_at',
      'expires_at',
      'error',
      'limit',
      'offset',
      'data',
      'next',
    ]);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data.map((r: any) => r.url)).toEqual(results.slice(0, 20).map((r) => r.url));
    expect(res.body.next).toBe(`/v1/crawl/${id}/pages?limit=20&offset=20`);
    const all = await server.get(`/v1/crawl/${id}?per_page=100&page=3`);
    expect(all.body.data.map((r: any) => r.url)).toEqual(results.slice(200).map((r) => r.url));
    expect(all.body.next).toBeUndefined();
  });

  test('pages paginate over all results and filter by status', async () => {
    const second = await server.get(`/v1/crawl/${id}/pages?page=2&per_page=5`);
    expect(second.body).toMatchObject({ page: 2, per_page: 5, total: results.length });
    expect(second.body.data.map((r: any) => r.url)).toEqual(results.slice(5, 10).map((r) => r.url));
    expect(second.body.next).toBe(`/v1/crawl/${id}/pages?limit=5&offset=10`);
    const failed = await server.get(`/v1/crawl/${id}/pages?status=failed&per_page=100`);
    expect(failed.body.total).toBe(summary.failed);
    expect(failed.body.data.every((r: any) => r.status === 'failed' && typeof r.error === 'string')).toBe(true);
    const last = await server.get(`/v1/crawl/${id}/pages?page=100&per_page=100`);
    expect(last.body.data).toEqual([]);
    expect(last.body.next).toBeUndefined();
  });
});

describe('crawl options', () => {
  test('max_depth 1 stops one link away; max_depth 0 scrapes the start page only', async () => {
    const { summary, results } = await crawl({ url: site.url('/'), max_depth: 1, max_pages: 1000 });
    const oneHop = [...site.tree.pathsWithin(1), ...site.extraPaths.filter((p) => p !== '/loop/b')];
    expect(sorted(results.map((r) => pathOf(r.url)))).toEqual(sorted(oneHop));
    expect(summary.total).toBe(oneHop.length);
    const start = await crawl({ url: site.url('/docs/page-4'), max_depth: 0 });
    expect(start.results.map((r) => pathOf(r.url))).toEqual(['/docs/page-4']);
  });

  test('max_pages is never exceeded, not even by one', async () => {
    const before = site.hits.length;
    const { summary, results } = await crawl({ url: site.url('/'), max_pages: 7 });
    expect(summary).toMatchObject({ status: 'completed', total: 7 });
    expect(results).toHaveLength(7);
    // Nothing beyond the admitted pages was fetched (a redirect's target is part of its page).
    const allowed = new Set(results.flatMap((r) => [pathOf(r.url), pathOf(r.metadata?.final_url ?? r.url)]));
    const fetched = site.hits
      .slice(before)
      .filter((h) => h.path !== '/robots.txt')
      .map((h) => h.path);
    expect(fetched.filter((p) => !allowed.has(p))).toEqual([]);
  });

  test('include_paths and exclude_paths filter links by path glob; the start page is always scraped', async () => {
    const blog = await crawl({ url: site.url('/'), include_paths: ['/blog/**'], max_pages: 1000 });
    const paths = blog.results.map((r) => pathOf(r.url));
    expect(paths[0]).toBe('/');
    expect(paths.length).toBeGreaterThan(1);
    expect(paths.slice(1).every((p) => p.startsWith('/blog/'))).toBe(true);
    const noDocs = await crawl({ url: site.url('/'), exclude_paths: ['docs/**', '/news/*', '/files/**'], max_pages: 1000, max_depth: 2 });
    const kept = noDocs.results.map((r) => pathOf(r.url));
    expect(kept.some((p) => p.startsWith('/docs/') || p.startsWith('/news/') || p.startsWith('/files/'))).toBe(false);
    expect(kept.some((p) => p.startsWith('/guides/'))).toBe(true);
  });

  test('allow_subdomains adds the sister host (by registrable domain) but no external host', async () => {
    const { results } = await crawl({ url: site.url('/'), allow_subdomains: true, max_depth: 2, max_pages: 1000 });
    const hosts = results.map((r) => new URL(r.url).hostname);
    expect(hosts.filter((h) => h === HOSTS.sub)).toHaveLength(3);
    expect(hosts).not.toContain(HOSTS.external);
  });

  test('allow_external_links follows links to any host', async () => {
    const { results } = await crawl({ url: site.url('/'), allow_external_links: true, max_depth: 2, max_pages: 1000 });
    const external = results.filter((r) => new URL(r.url).hostname === HOSTS.external).map((r) => pathOf(r.url));
    expect(sorted(external)).toEqual(['/', '/ext-1']);
  });

  test("a host's Crawl-delay spaces its fetches", async () => {
    // Fetches are granted a second apart; each arrives after what the worker does before sending,
    // a few ms on a quiet machine, hundreds on a loaded one: the slack scales with the load, up to
    // 900 ms (fetches without the delay would arrive within a few ms of each other).
    const slackMs = Math.min(900, Math.max(50, stretched(100)));
    const before = site.hits.length;
    const { results } = await crawl({ url: site.url('/', HOSTS.sub) });
    expect(sorted(results.map((r) => pathOf(r.url)))).toEqual(['/', '/b-1', '/b-2']);
    const starts = site.hits
      .slice(before)
      .filter((h) => h.host === HOSTS.sub && h.path !== '/robots.txt')
      .map((h) => h.at);
    expect(starts).toHaveLength(3);
    expect(spacingShortfalls(starts, 1000, slackMs)).toEqual([]);
  });

  test('scrape_options apply to every page', async () => {
    const { results } = await crawl({
      url: site.url('/'),
      max_pages: 3,
      scrape_options: { formats: ['text', 'links'], only_main_content: true },
    });
    for (const result of results) {
      expect(typeof result.text).toBe('string');
      expect(Array.isArray(result.links)).toBe(true);
      expect(result.markdown).toBeUndefined();
      expect(result.text).not.toContain('Harbour fixture site');
    }
  });

  test('a site that cannot be reached fails the crawl saying so, not as a robots.txt refusal', async () => {
    const { summary, results } = await crawl({ url: 'http://127.0.0.1:9/' });
    expect(summary.status).toBe('failed');
    expect(summary.error).toBe('Failed to fetch URL: the site could not be reached (connection refused)');
    expect(results).toEqual([expect.objectContaining({ status: 'failed', error: summary.error })]);
  });
});

describe('crawl validation', () => {
  const cases: Array<[unknown, string]> = [
    [{}, 'Missing required field: url'],
    [{ url: 'ftp://example.com' }, 'Invalid field url: must be an absolute http(s) URL'],
    [{ url: 'http://example.com', max_pages: 0 }, 'Invalid field max_pages'],
    [{ url: 'http://example.com', max_pages: 10_001 }, 'Invalid field max_pages'],
    [{ url: 'http://example.com', max_depth: 101 }, 'Invalid field max_depth'],
    [{ url: 'http://example.com', max_depth: 1.5 }, 'Invalid field max_depth'],
    [{ url: 'http://example.com', include_paths: [''] }, 'Invalid field include_paths[0]'],
    [{ url: 'http://example.com', exclude_paths: 'docs' }, 'Invalid field exclude_paths'],
    [
      { url: 'http://example.com', include_paths: ['/+(a|b)'] },
      'Invalid field include_paths[0]: is not a usable glob: "+" (plus) is not supported',
    ],
    [{ url: 'http://example.com', webhook_url: 'not a url at all' }, 'Invalid field webhook_url'],
    [{ url: 'http://example.com', webhook_url: 'x' }, 'Invalid field webhook_url: must be an absolute http(s) URL'],
    [
      { url: 'http://example.com', webhook_url: 'https://h.example/a\tb' },
      'Invalid field webhook_url: must not contain control characters',
    ],
    [{ url: 'http://example.com', scrape_options: { formats: ['nope'] } }, 'Invalid field formats[0]: unknown format "nope"'],
    [{ url: 'http://example.com', scrape_options: { url: 'http://x' } }, 'Unknown field: scrape_options.url'],
    [{ url: 'http://example.com', limit: 5 }, 'Unknown field: limit'],
  ];
  for (const [body, message] of cases) {
    test(`400 ${message}`, async () => {
      const res = await server.post('/v1/crawl', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toStartWith(message);
    });
  }

  test('bad JSON and oversized bodies', async () => {
    expect((await server.post('/v1/crawl', '{nope')).status).toBe(400);
    expect((await server.post('/v1/crawl', { url: `http://example.com/${'a'.repeat(1_100_000)}` })).status).toBe(413);
  });
});

test('OpenAPI documents every crawl and batch route with its limits', async () => {
  const doc = (await server.get('/openapi.json')).body;
  for (const path of [
    '/v1/crawl',
    '/v1/crawl/{id}',
    '/v1/crawl/{id}/pages',
    '/v1/crawl/{id}/stream',
    '/v1/crawl/history',
    '/v1/crawl/{id}/retry',
    '/v1/batch',
    '/v1/batch/{id}',
    '/v1/batch/{id}/stream',
  ]) {
    expect(Object.keys(doc.paths)).toContain(path);
  }
  expect(doc.components.schemas.CrawlRequest.properties.max_pages).toMatchObject({ default: 100, minimum: 1, maximum: 10_000 });
  expect(doc.components.schemas.CrawlRequest.properties.max_depth).toMatchObject({ default: 10, minimum: 0, maximum: 100 });
  expect(doc.components.schemas.BatchRequest.properties.urls.maxItems).toBe(1000);
  for (const name of ['RunAccepted', 'CrawlSummary', 'CrawlPage', 'BatchSummary', 'CrawlEvent', 'BatchEvent'])
    expect(doc.components.schemas[name]).toBeDefined();
});

describe('the SSRF guard on crawls and batches', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTrawlServer({ overrides: { fetch: { allowPrivateNetwork: false } } });
  });
  afterAll(async () => guarded?.stop());

  test('a webhook_url on a forbidden address is refused when the run starts', async () => {
    const loopback = 'Invalid field webhook_url: address 127.0.0.1 is not allowed (loopback address)';
    const crawl = await guarded.post('/v1/crawl', { url: 'https://93.184.215.14/', webhook_url: 'http://127.0.0.1:9/hook' });
    expect([crawl.status, crawl.body.error]).toEqual([400, loopback]);
    const batch = await guarded.post('/v1/batch', { urls: ['https://93.184.215.14/'], webhook_url: 'http://127.0.0.1:9/hook' });
    expect([batch.status, batch.body.error]).toEqual([400, loopback]);
    expect((await guarded.get('/v1/crawl/history')).body.total).toBe(0);
  });

  test('a start URL the guard refuses fails with the refusal, not as a robots.txt problem', async () => {
    const started = await guarded.post('/v1/crawl', { url: 'http://127.0.0.1:9/' });
    expect(started.status).toBe(202);
    const summary = await waitForRun(guarded, `/v1/crawl/${started.body.id}`);
    expect(summary).toMatchObject({ status: 'failed', completed: 0, failed: 1 });
    expect(summary.error).toBe(
      'Failed to fetch URL: address 127.0.0.1 is not allowed (loopback address); set fetch.allowPrivateNetwork = true (or TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true) to allow private addresses',
    );
  });
});
