// The browser through an outbound proxy: the guard proxy chains to it, so the page and every
// sub-request pass through the outbound proxy (HTTP with credentials, or SOCKS5 with credentials,
// which Chromium could not send itself), the guard still refuses internal targets before the
// outbound proxy sees them, and a TLS site is reached through a tunnel.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { loopbackAsPublic } from '../../test/helpers/loopback-public.ts';
import { ProxyRouter } from '../net/proxies.ts';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { TEST_CERT, TEST_KEY } from '../../test/helpers/tls-cert.ts';
import { startHttpProxy, startSocksProxy, type TestProxy } from '../../test/servers/forward-proxy.ts';
import type { BrowserPool } from '../services.ts';
import { createBrowserPool } from './pool.ts';
import { requireChromium } from './testing.ts';

const PASSWORD = 'browser-pa55';
let site: FixtureSite;
let tls: ReturnType<typeof Bun.serve>;
let internal: ReturnType<typeof Bun.serve>;
let internalHits = 0;
let http: TestProxy;
let socks: TestProxy;
const pools: BrowserPool[] = [];

const policy = loopbackAsPublic;

function pool(fetch: Record<string, unknown>): BrowserPool {
  const config = loadConfig({
    plugins: [],
    env: {},
    overrides: { log: { level: 'silent' }, browser: { warmSpare: false }, fetch: { allowPrivateNetwork: false, ...fetch } },
  });
  const created = createBrowserPool(config, pino({ level: 'silent' }), { addressPolicy: policy, proxies: new ProxyRouter(config.fetch) });
  pools.push(created);
  return created;
}

beforeAll(async () => {
  requireChromium();
  internal = Bun.serve({
    hostname: '127.0.0.2',
    port: 0,
    fetch: () => {
      internalHits++;
      return new Response('internal');
    },
  });
  site = startFixtureSite({
    '/page':
      '<html><body><h1>Through the proxy</h1><img src="/pixel.gif"><script>fetch("/api").then(r => r.text()).then(t => { document.body.dataset.api = t; })</script></body></html>',
    '/pixel.gif': { body: 'GIF89a', headers: { 'content-type': 'image/gif' } },
    '/api': 'api answer',
    '/leaky': () =>
      new Response(`<html><body><img src="http://127.0.0.2:${internal.port}/secret.gif"><p>leaky</p></body></html>`, {
        headers: { 'content-type': 'text/html' },
      }),
  });
  tls = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { key: TEST_KEY, cert: TEST_CERT },
    fetch: () => new Response('<html><body><p>secure page</p></body></html>', { headers: { 'content-type': 'text/html' } }),
  });
  http = await startHttpProxy({ auth: `trawl:${PASSWORD}` });
  socks = await startSocksProxy({ auth: `trawl:${PASSWORD}` });
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await Promise.all([site.stop(), tls.stop(true), internal.stop(true), http.close(), socks.close()]);
});

async function render(p: BrowserPool, url: string, options: { proxy?: string; ignoreTls?: boolean } = {}) {
  return p.withPage(
    { proxy: options.proxy, target: url, context: options.ignoreTls ? { ignoreHTTPSErrors: true } : undefined },
    async ({ page, failures }) => {
      await page.goto(url, { waitUntil: 'networkidle' });
      return { html: await page.content(), api: await page.evaluate(() => document.body.dataset.api ?? null), failures: [...failures] };
    },
  );
}

describe('the browser through an outbound proxy', () => {
  test('the default HTTP proxy carries the page and every sub-request, with its credentials', async () => {
    http.seen.length = 0;
    const result = await render(pool({ proxy: http.url }), site.at('/page'));
    expect(result.html).toContain('Through the proxy');
    expect(result.api).toBe('api answer');
    const urls = http.seen.map((s) => s.url);
    for (const path of ['/page', '/pixel.gif', '/api']) expect(urls).toContain(site.at(path));
    expect(http.seen.every((s) => s.authorized)).toBe(true);
  });

  test('a SOCKS5 pool with credentials, picked per job', async () => {
    socks.seen.length = 0;
    const result = await render(pool({ proxies: { socks: { urls: [socks.url] } } }), site.at('/page'), { proxy: 'socks' });
    expect(result.api).toBe('api answer');
    expect(socks.seen.length).toBeGreaterThanOrEqual(1);
    expect(socks.seen.every((s) => s.authorized && s.target === `127.0.0.1:${site.port}`)).toBe(true);
  });

  test('HTTPS goes through a tunnel of the outbound proxy', async () => {
    http.seen.length = 0;
    const result = await render(pool({ proxy: http.url }), `https://127.0.0.1:${tls.port}/`, { ignoreTls: true });
    expect(result.html).toContain('secure page');
    expect(http.seen).toContainEqual(expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${tls.port}` }));
  });

  test('the guard refuses an internal sub-request before the outbound proxy sees it', async () => {
    http.seen.length = 0;
    const result = await render(pool({ proxy: http.url }), site.at('/leaky'));
    expect(result.html).toContain('leaky');
    expect(result.failures).toContainEqual(expect.objectContaining({ url: `http://127.0.0.2:${internal.port}/secret.gif`, refused: true }));
    expect(http.seen.map((s) => s.target)).not.toContain(`127.0.0.2:${internal.port}`);
    expect(internalHits).toBe(0);
  });

  test('with private networks allowed, the chain still carries everything', async () => {
    http.seen.length = 0;
    const config = loadConfig({
      plugins: [],
      env: {},
      overrides: { log: { level: 'silent' }, browser: { warmSpare: false }, fetch: { allowPrivateNetwork: true, proxy: http.url } },
    });
    const open = createBrowserPool(config, pino({ level: 'silent' }), { proxies: new ProxyRouter(config.fetch) });
    pools.push(open);
    const result = await render(open, site.at('/page'));
    expect(result.api).toBe('api answer');
    expect(http.seen.map((s) => s.url)).toContain(site.at('/page'));
  });

  test('a proxy refusing the credentials fails the page, and the failure names the proxy only', async () => {
    const failures = await pool({ proxy: http.url.replace(PASSWORD, 'wrong') }).withPage({}, async ({ page, failures }) => {
      await page.goto(site.at('/page')).catch(() => {});
      return [...failures];
    });
    expect(failures[0]).toEqual({
      url: site.at('/page'),
      refused: false,
      reason: `the proxy http://127.0.0.1:${http.port} refused the connection: it wants credentials, or other ones (HTTP 407 Proxy Authentication Required)`,
    });
    expect(JSON.stringify(failures)).not.toContain('wrong');
  });
});
