// The HTTP client through outbound proxies: an HTTP proxy (forwarding and CONNECT, Basic credentials)
// and a SOCKS5 proxy (with credentials), each counting what passed through it; pools and their
// rotation; the per-request choice; the proxy's own refusals; and the SSRF guard holding in front of
// the proxy. Everything listens on loopback; 127.0.0.1 plays the public web, 127.0.0.2 an internal host.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { Writable } from 'node:stream';
import { TrawlError } from '../errors.ts';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { testConfig } from '../../test/helpers/plugin-context.ts';
import { TEST_CERT, TEST_KEY } from '../../test/helpers/tls-cert.ts';
import { startHttpProxy, startSocksProxy, type TestProxy } from '../../test/servers/forward-proxy.ts';
import { createHttpClient, type FetchConfig } from './http-client.ts';
import { ProxyRouter } from './proxies.ts';
import { loopbackAsPublic } from '../../test/helpers/loopback-public.ts';

const PASSWORD = 's3cr3t-pa55';
let site: FixtureSite;
let tls: ReturnType<typeof Bun.serve>;
let internal: ReturnType<typeof Bun.serve>;
let internalHits = 0;
let http: TestProxy;
let socks: TestProxy;
let spare: TestProxy;
const logLines: string[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  }),
);

/** 127.0.0.1 is "public" here; every other internal address keeps its refusal. */
const policy = loopbackAsPublic;

function client(fetch: Partial<FetchConfig> = {}) {
  const config: FetchConfig = {
    ...testConfig().fetch,
    allowPrivateNetwork: false,
    timeoutMs: 3000,
    resolve: { 'intranet.test': '127.0.0.2', 'www.site.test': '127.0.0.1' },
    ...fetch,
  };
  return createHttpClient(config, logger, { addressPolicy: policy, ca: TEST_CERT }, undefined, new ProxyRouter(config));
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrawlError);
  return (err as TrawlError).message;
}

beforeAll(async () => {
  site = startFixtureSite({
    '/': '<p>public page</p>',
    '/to-internal': () => new Response(null, { status: 302, headers: { location: `http://127.0.0.2:${internal.port}/admin` } }),
  });
  tls = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { key: TEST_KEY, cert: TEST_CERT },
    fetch: (req) => new Response(`tls page for ${req.headers.get('host')}`),
  });
  internal = Bun.serve({
    hostname: '127.0.0.2',
    port: 0,
    fetch: () => {
      internalHits++;
      return new Response('internal secret');
    },
  });
  const resolve = { 'www.site.test': '127.0.0.1' };
  http = await startHttpProxy({ auth: `trawl:${PASSWORD}`, resolve });
  socks = await startSocksProxy({ auth: `trawl:${PASSWORD}`, resolve });
  spare = await startHttpProxy({ resolve });
});

afterAll(async () => {
  await Promise.all([site.stop(), tls.stop(true), internal.stop(true), http.close(), socks.close(), spare.close()]);
  // Credentials never reach a log line, whatever happened above.
  expect(logLines.length).toBeGreaterThan(0);
  expect(logLines.join('\n')).not.toContain(PASSWORD);
});

const reset = () => {
  for (const p of [http, socks, spare]) p.seen.length = 0;
};

describe('the default proxy', () => {
  test('plain HTTP goes to an HTTP proxy as a forwarded request with the credentials', async () => {
    reset();
    const page = await client({ proxy: http.url }).request(site.at('/'));
    expect(page.text).toBe('<p>public page</p>');
    expect(http.seen).toEqual([expect.objectContaining({ kind: 'forward', url: site.at('/'), authorized: true })]);
  });

  test('HTTPS goes through a CONNECT tunnel, TLS checked end to end', async () => {
    reset();
    const page = await client({ proxy: http.url }).request(`https://127.0.0.1:${tls.port}/`);
    expect(page.text).toBe(`tls page for 127.0.0.1:${tls.port}`);
    expect(http.seen).toEqual([expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${tls.port}`, authorized: true })]);
  });

  test('names go to an HTTP proxy as names, for it to resolve', async () => {
    reset();
    const page = await client({ proxy: http.url }).request(`http://www.site.test:${site.port}/`);
    expect(page.text).toBe('<p>public page</p>');
    expect(http.seen).toEqual([expect.objectContaining({ kind: 'forward', target: `www.site.test:${site.port}` })]);
  });

  test('socks5:// is sent the address checked here; socks5h:// the name', async () => {
    reset();
    const name = `http://www.site.test:${site.port}/`;
    expect((await client({ proxy: socks.url }).request(name)).text).toBe('<p>public page</p>');
    expect((await client({ proxy: socks.url.replace('socks5:', 'socks5h:') }).request(name)).text).toBe('<p>public page</p>');
    expect(socks.seen.map((s) => [s.target, s.addressType, s.authorized])).toEqual([
      [`127.0.0.1:${site.port}`, 'address', true],
      [`www.site.test:${site.port}`, 'name', true],
    ]);
  });

  test('HTTPS through SOCKS5', async () => {
    reset();
    const page = await client({ proxy: socks.url }).request(`https://127.0.0.1:${tls.port}/`);
    expect(page.text).toBe(`tls page for 127.0.0.1:${tls.port}`);
    expect(socks.seen).toHaveLength(1);
  });
});

describe('pools and the per-request choice', () => {
  const pools = (rotation: 'round-robin' | 'random' | 'sticky') => ({
    proxies: { office: { urls: [http.url, spare.url], rotation, stickySeconds: 600 } },
  });

  test('round-robin takes the pool members in turn', async () => {
    reset();
    const c = client(pools('round-robin'));
    for (let i = 0; i < 4; i++) await c.request(site.at('/'), { proxy: 'office' });
    expect([http.seen.length, spare.seen.length]).toEqual([2, 2]);
  });

  test('random uses the members of the pool only', async () => {
    reset();
    const c = client(pools('random'));
    for (let i = 0; i < 24; i++) await c.request(site.at('/'), { proxy: 'office' });
    expect(http.seen.length + spare.seen.length).toBe(24);
    expect(Math.min(http.seen.length, spare.seen.length)).toBeGreaterThan(0);
  });

  test('sticky keeps one proxy per target host', async () => {
    reset();
    const c = client(pools('sticky'));
    for (let i = 0; i < 3; i++) await c.request(site.at('/'), { proxy: 'office' });
    for (let i = 0; i < 3; i++) await c.request(`http://www.site.test:${site.port}/`, { proxy: 'office' });
    expect([http.seen.length, spare.seen.length]).toEqual([3, 3]);
    expect(new Set(http.seen.map((s) => s.url)).size).toBe(1);
  });

  test('"none" goes direct even with a default proxy; a pool name overrides it', async () => {
    reset();
    const c = client({ proxy: http.url, ...pools('round-robin') });
    await c.request(site.at('/'), { proxy: 'none' });
    expect(http.seen).toHaveLength(0);
    await c.request(site.at('/'), { proxy: 'office' });
    await c.request(site.at('/'), { proxy: 'office' });
    expect([http.seen.length, spare.seen.length]).toEqual([1, 1]);
  });

  test('a configured service on this machine is reached directly, not through the default proxy', async () => {
    reset();
    const page = await client({ proxy: http.url }).request(`http://localhost:${site.port}/`, { configuredService: true });
    expect(page.text).toBe('<p>public page</p>');
    expect(http.seen).toHaveLength(0);
  });
});

describe('the proxy says no', () => {
  const wrong = () => http.url.replace(PASSWORD, 'wrong-password');

  test('a 407 to a forwarded request is a clear error, not the page', async () => {
    const message = await failure(client({ proxy: wrong() }).request(site.at('/')));
    expect(message).toBe(
      `Failed to fetch URL: the proxy http://127.0.0.1:${http.port} refused the connection: it wants credentials, or other ones (HTTP 407 Proxy Authentication Required)`,
    );
  });

  test('a 407 to a CONNECT is the same error', async () => {
    const message = await failure(client({ proxy: wrong() }).request(`https://127.0.0.1:${tls.port}/`));
    expect(message).toContain(`the proxy http://127.0.0.1:${http.port} refused the connection: it wants credentials`);
  });

  test('SOCKS5 credentials refused, and an unreachable proxy, say which proxy without its credentials', async () => {
    const bad = await failure(client({ proxy: socks.url.replace(PASSWORD, 'nope') }).request(site.at('/')));
    expect(bad).toBe(
      `Failed to fetch URL: the proxy socks5://127.0.0.1:${socks.port} refused the connection: Socks5 Authentication failed`,
    );
    const gone = await failure(client({ proxy: `http://trawl:${PASSWORD}@127.0.0.1:1` }).request(site.at('/')));
    expect(gone).toBe('Failed to fetch URL: through the proxy http://127.0.0.1:1: connection refused');
    for (const message of [bad, gone]) expect(message).not.toContain(PASSWORD);
  });
});

describe('a proxy that says nothing', () => {
  let silent: import('node:net').Server;
  let silentPort = 0;
  const open = new Set<import('node:net').Socket>();
  beforeAll(async () => {
    const net = await import('node:net');
    // Accepts, never answers; remembers each connection until the client closes it.
    silent = net.createServer((socket) => {
      socket.resume(); // reads and ignores what it is sent, so it sees the client close
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as import('node:net').AddressInfo).port;
  });
  afterAll(async () => {
    // Every abandoned attempt closed its connection to the proxy.
    for (let i = 0; i < 40 && open.size; i++) await Bun.sleep(50);
    const left = open.size;
    for (const socket of open) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    expect(left).toBe(0);
  });

  for (const [scheme, target] of [
    ['http', 'https'],
    ['http', 'http'],
    ['socks5', 'http'],
    ['socks5h', 'https'],
  ] as const) {
    test(`${scheme}:// proxy, ${target}:// target: the request's deadline ends it`, async () => {
      const started = performance.now();
      const message = await failure(
        client({ proxy: `${scheme}://127.0.0.1:${silentPort}`, timeoutMs: 800 }).request(
          `${target}://127.0.0.1:${target === 'https' ? tls.port : site.port}/`,
        ),
      );
      expect(message).toMatch(/timed out|timeout|no answer within 800 ms/);
      expect(performance.now() - started).toBeLessThan(5000);
    });
  }

  test('and so does the caller giving up', async () => {
    const controller = new AbortController();
    const pending = client({ proxy: `http://127.0.0.1:${silentPort}`, timeoutMs: 60_000 }).request(`https://127.0.0.1:${tls.port}/`, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('client went away')), 200);
    const started = performance.now();
    await failure(pending);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('the SSRF guard in front of the proxy', () => {
  test("a caller's Host header cannot redirect a forwarding proxy to an internal host", async () => {
    reset();
    const page = await client({ proxy: http.url }).request(site.at('/'), { headers: { Host: `127.0.0.2:${internal.port}` } });
    expect(page.text).toBe('<p>public page</p>');
    expect(http.seen.map((s) => s.url)).toEqual([site.at('/')]);
    expect(internalHits).toBe(0);
  });

  test('a tunnel goes to the address the guard checked, and TLS still checks the name', async () => {
    reset();
    const message = await failure(client({ proxy: http.url }).request(`https://www.site.test:${tls.port}/`));
    expect(http.seen.map((s) => s.target)).toEqual([`127.0.0.1:${tls.port}`]);
    expect(message).toContain('TLS error'); // the certificate is for localhost and 127.0.0.1, not www.site.test
  });

  for (const kind of ['http', 'socks5', 'socks5h'] as const) {
    test(`${kind}: private targets are refused before the proxy is sent anything`, async () => {
      reset();
      const proxy = kind === 'http' ? http : socks;
      const c = client({ proxy: kind === 'socks5h' ? socks.url.replace('socks5:', 'socks5h:') : proxy.url });
      expect(await failure(c.request(`http://127.0.0.2:${internal.port}/admin`))).toContain('loopback');
      expect(await failure(c.request(`http://intranet.test:${internal.port}/admin`))).toContain('loopback');
      expect(await failure(c.request('http://169.254.169.254/latest/meta-data/'))).toContain('link-local');
      expect(await failure(c.request(site.at('/to-internal')))).toContain('loopback');
      // Only the public first hop of the redirect reached the proxy.
      expect(proxy.seen.map((s) => s.target)).toEqual([kind === 'socks5h' ? `127.0.0.1:${site.port}` : `127.0.0.1:${site.port}`]);
      expect(internalHits).toBe(0);
    });
  }
});
