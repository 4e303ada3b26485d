/**
 * Blocked pages and outbound proxies through the HTTP API, as a user meets them: a challenge page
 * is a 422 naming the vendor on /v1 and /v2 (never content, never stored), `proxy: "auto"`
 * escalates through the browser and a proxy pool and says so in the warnings, an unknown pool or an
 * unmapped /v2 proxy is a 400, crawl pages that are blocked fail with that reason, a watch check
 * that meets a block is a failed check and no change, cloud mode charges nothing for a block, and
 * the metrics count blocks per vendor. The fixture site blocks every request that did not come
 * through the test proxy (which marks what it forwards with Via, as proxies do).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startHttpProxy, type TestProxy } from '../servers/forward-proxy.ts';
import { admin, bearer, cloudTenants, ADMIN_KEY } from '../helpers/cloud-tenants.ts';
import { Writable } from 'node:stream';
import { createLogger } from '../../core/logger.ts';
import { blockedPages } from '../fixtures/blocked-pages.ts';

/** Cloudflare's rate-limit block (error 1015), served once with a short Retry-After. */
const RATE_LIMITED = blockedPages.find((c) => c.name.includes('1015'))!;
let rateLimitServed = 0;

/** Cloudflare's managed challenge as its documented markers show it. */
const CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main">
<div class="main-content"><h1 class="zone-name-title h1">www.example.com</h1>
<h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2></div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'www.example.com',cType: 'managed'};
var a = document.createElement('script');a.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b2c3d4e5f6a7b';
document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`;
const CHALLENGE_HEADERS = {
  'content-type': 'text/html; charset=UTF-8',
  'cf-mitigated': 'challenge',
  server: 'cloudflare',
  'cf-ray': '8a1b2c3d4e5f6a7b-AMS',
};
const ARTICLE = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>The harbour opens at six in the morning and closes at dusk.</p><a href="/a">A</a> <a href="/b">B</a> <a href="/guarded">G</a> <a href="/limited">L</a></article></body></html>`;

let site: FixtureSite;
let proxy: TestProxy;
let server: TestServer;
const POOL_PASSWORD = 'pool-secret';
const logText: string[] = [];
/** When each path was fetched (ms), for the Retry-After hold-off. */
const fetchedAt: Array<{ path: string; at: number }> = [];
let throttled = false;
/** Paths that answer the challenge to direct requests; everything else is open. */
const guarded = new Set(['/guarded', '/watched']);

const page = (path: string) => (req: Request) => {
  fetchedAt.push({ path, at: Date.now() });
  if (path === '/b' && !throttled && req.headers.get('x-crawl-test')) {
    throttled = true;
    return new Response('<html><body><p>Slow down</p></body></html>', {
      status: 429,
      headers: { 'retry-after': '2', 'content-type': 'text/html' },
    });
  }
  if (path === '/limited' && req.headers.get('x-crawl-test') && rateLimitServed++ === 0) {
    return new Response(RATE_LIMITED.body, { status: 429, headers: { ...RATE_LIMITED.headers, 'retry-after': '1' } });
  }
  if (guarded.has(path) && !req.headers.get('via')) return new Response(CHALLENGE, { status: 403, headers: CHALLENGE_HEADERS });
  return new Response(ARTICLE(path.slice(1)), { headers: { 'content-type': 'text/html; charset=utf-8' } });
};

beforeAll(async () => {
  site = startFixtureSite({
    '/': page('/'),
    '/a': page('/a'),
    '/b': page('/b'),
    '/guarded': page('/guarded'),
    '/watched': page('/watched'),
    '/limited': page('/limited'),
  });
  proxy = await startHttpProxy({ auth: `pool:${POOL_PASSWORD}` });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logText.push(String(chunk));
      done();
    },
  });
  server = await startTrawlServer({
    logger: createLogger('debug', sink),
    overrides: {
      fetch: { proxies: { office: { urls: [proxy.url] }, stale: { urls: [proxy.url.replace(POOL_PASSWORD, 'expired-secret')] } } },
      v2: { proxies: { stealth: 'office' } },
      jobs: { pollIntervalMs: 50, retryBaseMs: 10, retryMaxMs: 20 },
      // One fetch of a host at a time: a 429's hold-off then orders every later fetch of it.
      crawl: { perHostConcurrency: 1 },
    },
  });
});

afterAll(async () => {
  await server.stop();
  await Promise.all([site.stop(), proxy.close()]);
  // Whatever happened above, no log line carried a proxy's credentials.
  expect(logText.length).toBeGreaterThan(0);
  expect(logText.join('')).not.toContain(POOL_PASSWORD);
  expect(logText.join('')).not.toContain('expired-secret');
});

async function crawled(id: string) {
  let body: any;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(50)) {
    body = (await server.get(`/v1/crawl/${id}?per_page=100`)).body;
    if (body.status === 'completed') break;
  }
  expect(body.status).toBe('completed');
  return Object.fromEntries(body.data.map((p: any) => [new URL(p.url).pathname, p]));
}

describe('/v1', () => {
  test('a challenge page is a 422 that names the vendor, with the status it came with', async () => {
    const answer = await server.post('/v1/scrape', { url: site.at('/guarded'), formats: ['markdown'] });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      error: 'Blocked by cloudflare (challenge)',
      code: 'blocked',
      vendor: 'cloudflare',
      kind: 'challenge',
      status_code: 403,
    });
  });

  test('nothing of a blocked page is stored, so nothing can be answered from the cache', async () => {
    await server.post('/v1/scrape', { url: site.at('/guarded') });
    expect((await server.post('/v1/scrape', { url: site.at('/a') })).status).toBe(200);
    const rows = await server.trawl.storage.db.selectFrom('results').select(['url']).execute();
    expect(rows.map((r) => r.url)).not.toContain(site.at('/guarded'));
    expect(rows.map((r) => r.url)).toContain(site.at('/a')); // an open page is
  });

  test('proxy: "auto" escalates to the pool and lists each attempt in the warnings', async () => {
    proxy.seen.length = 0;
    const answer = await server.post('/v1/scrape', { url: site.at('/guarded'), formats: ['markdown'], proxy: 'auto', render: false });
    expect(answer.status).toBe(200);
    expect(answer.body.markdown).toContain('The harbour opens at six');
    expect(answer.body.warnings).toEqual([
      'fetcher.http: Blocked by cloudflare (challenge) through the default route; tried the next route',
    ]);
    // The page itself went through the pool once (the favicon check may follow it on the same route).
    expect(proxy.seen.map((s) => s.url).filter((url) => !url?.endsWith('/favicon.ico'))).toEqual([site.at('/guarded')]);
  });

  test('with rendering allowed, "auto" tries the browser before the pool, then the pool in the browser', async () => {
    proxy.seen.length = 0;
    const answer = await server.post('/v1/scrape', { url: site.at('/guarded'), formats: ['markdown'], proxy: 'auto' });
    expect(answer.status).toBe(200);
    expect(answer.body.markdown).toContain('The harbour opens at six');
    expect(answer.body.metadata.rendered).toBe(true);
    expect(answer.body.warnings).toEqual([
      'fetcher.http: Blocked by cloudflare (challenge) through the default route; tried the next route',
      'fetcher.browser: Blocked by cloudflare (challenge) through the browser; tried the next route',
    ]);
    expect(proxy.seen.map((s) => s.url)).toContain(site.at('/guarded'));
  });

  test('a named pool is used directly; an unknown one is a 400 that lists the pools', async () => {
    proxy.seen.length = 0;
    expect((await server.post('/v1/scrape', { url: site.at('/guarded'), proxy: 'office' })).status).toBe(200);
    expect(proxy.seen).toHaveLength(1);
    const unknown = await server.post('/v1/scrape', { url: site.at('/guarded'), proxy: 'residential' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe(
      'Invalid field proxy: unknown proxy pool "residential" (use "none", "auto" or one of: "office", "stale")',
    );
  });

  test('map reads its start page, robots.txt and sitemaps through the pool it names', async () => {
    proxy.seen.length = 0;
    const mapped = await server.post('/v1/map', { url: site.at('/guarded'), proxy: 'office', filter_by_path: false });
    expect(mapped.status).toBe(200);
    expect(mapped.body.links.map((l: { url: string }) => new URL(l.url).pathname)).toEqual(expect.arrayContaining(['/a', '/b']));
    const through = proxy.seen.map((s) => new URL(s.url!).pathname);
    expect(through).toEqual(expect.arrayContaining(['/guarded', '/robots.txt']));
    const unknown = await server.post('/v1/map', { url: site.at('/guarded'), proxy: 'nope' });
    expect(unknown.status).toBe(400);
  });

  test('a proxy that refuses the credentials is a clear error that shows no credentials', async () => {
    const answer = await server.post('/v1/scrape', { url: site.at('/a'), proxy: 'stale' });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe(
      `Failed to fetch URL: the proxy http://127.0.0.1:${proxy.port} refused the connection: it wants credentials, or other ones (HTTP 407 Proxy Authentication Required)`,
    );
    expect(JSON.stringify(answer.body)).not.toContain('expired-secret');
  });

  test('a crawl through a pool (scrape_options.proxy) gets the page the direct route is refused', async () => {
    const started = await server.post('/v1/crawl', {
      url: site.at('/'),
      max_pages: 10,
      scrape_options: { formats: ['markdown'], proxy: 'office' },
    });
    expect(started.status).toBe(202);
    const pages = await crawled(started.body.id);
    expect(pages['/guarded'].error).toBeUndefined();
    expect(pages['/guarded'].markdown).toContain('The harbour opens at six');
  });

  test("a target's 429 with Retry-After holds its host off in a crawl", async () => {
    fetchedAt.length = 0;
    const started = await server.post('/v1/crawl', {
      url: site.at('/'),
      max_pages: 10,
      scrape_options: { formats: ['markdown'], headers: { 'X-Crawl-Test': '1' } },
    });
    const pages = await crawled(started.body.id);
    expect(pages['/b'].error).toBeUndefined(); // retried after the wait, then fine
    // A recognised rate-limit block with Retry-After is waited out and tried again, not a failed page.
    expect(rateLimitServed).toBeGreaterThanOrEqual(2);
    expect(pages['/limited'].error).toBeUndefined();
    const refusal = fetchedAt.find((f) => f.path === '/b')!;
    const after = fetchedAt.filter((f) => f.at > refusal.at);
    expect(after.length).toBeGreaterThan(0);
    // Nothing of the host was fetched until the two seconds it asked for had passed.
    for (const f of after) expect(f.at - refusal.at).toBeGreaterThanOrEqual(1900);
  });

  test('crawl pages that are blocked fail with the reason; the others complete', async () => {
    const started = await server.post('/v1/crawl', { url: site.at('/'), max_pages: 10, scrape_options: { formats: ['markdown'] } });
    expect(started.status).toBe(202);
    const byPath = await crawled(started.body.id);
    expect(byPath['/guarded'].error).toBe('Blocked by cloudflare (challenge)');
    expect(byPath['/a'].markdown).toContain('The harbour opens at six');
  });

  test('a watch check that meets a block is a failed check, never a change', async () => {
    guarded.delete('/watched');
    const created = await server.post('/v1/watch', { url: site.at('/watched'), interval_minutes: 60 });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const snapshots = async () => (await server.get(`/v1/watch/${id}`)).body;
    for (const deadline = Date.now() + 20_000; (await snapshots()).snapshots.length < 1 && Date.now() < deadline; ) await Bun.sleep(50);
    guarded.add('/watched');
    await server.post(`/v1/watch/${id}/check`, undefined);
    let detail: any;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(50)) {
      detail = await snapshots();
      if (detail.last_error) break;
    }
    expect(detail.last_error).toBe('Blocked by cloudflare (challenge)');
    expect(detail.snapshots).toHaveLength(1);
  });

  test('blocks are counted per vendor', async () => {
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/trawl_blocked_pages_total\{vendor="cloudflare"\} [1-9]/);
  });
});

describe('/v2', () => {
  test('a blocked page is the /v2 error shape', async () => {
    const answer = await server.post('/v2/scrape', { url: site.at('/guarded'), proxy: 'basic' });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      success: false,
      error: 'Blocked by cloudflare (challenge)',
      code: 'SCRAPE_BLOCKED',
      details: { vendor: 'cloudflare', kind: 'challenge', statusCode: 403 },
    });
  });

  test('stealth goes through the pool [v2.proxies] names; an unmapped value is a 400', async () => {
    const stealth = await server.post('/v2/scrape', { url: site.at('/guarded'), proxy: 'stealth' });
    expect(stealth.status).toBe(200);
    expect(stealth.body.data.markdown).toContain('The harbour opens at six');
    const enhanced = await server.post('/v2/scrape', { url: site.at('/guarded'), proxy: 'enhanced' });
    expect(enhanced.status).toBe(400);
    expect(enhanced.body.error).toContain('proxy "enhanced" is not configured on this server');
  });
});

describe('cloud mode', () => {
  let cloud: TestServer;
  const tenants = cloudTenants(() => cloud);
  beforeAll(async () => {
    cloud = await startTrawlServer({ overrides: { mode: 'cloud', adminKey: ADMIN_KEY, jobs: { pollIntervalMs: 50 } } });
  });
  afterAll(() => cloud.stop());

  test('a blocked scrape costs nothing; a blocked crawl page is given back', async () => {
    const t = await tenants.tenant('starter', 50);
    const blocked = await cloud.post('/v1/scrape', { url: site.at('/guarded') }, bearer(t.key));
    expect(blocked.status).toBe(422);
    expect(await tenants.balance(t.id)).toBe(50);
    const ok = await cloud.post('/v1/scrape', { url: site.at('/a') }, bearer(t.key));
    expect(ok.status).toBe(200);
    expect(await tenants.balance(t.id)).toBe(49);
    const crawl = await cloud.post('/v1/crawl', { url: site.at('/'), max_pages: 10 }, bearer(t.key));
    let body: any;
    await tenants.until(async () => {
      body = (await cloud.get(`/v1/crawl/${crawl.body.id}?per_page=100`, bearer(t.key))).body;
      return body.status === 'completed';
    });
    const completed = body.data.filter((p: any) => !p.error).length;
    expect(body.data.some((p: any) => p.error === 'Blocked by cloudflare (challenge)')).toBe(true);
    // Only the pages delivered are paid for: the blocked one came back.
    await tenants.until(async () => (await tenants.balance(t.id)) === 49 - completed);
    expect((await cloud.get(`/admin/workspaces/${t.id}`, admin)).body.credits).toBe(49 - completed);
  });
});
