// The SSRF guard inside the HTTP client: literals, resolved names, overrides and redirect hops are
// all refused before any connection when allowPrivateNetwork is off. Only loopback is ever contacted.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { TrawlError } from '../errors.ts';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { testConfig } from '../../test/helpers/plugin-context.ts';
import { createHttpClient, type FetchConfig } from './http-client.ts';
import type { AddressPolicy } from './address-guard.ts';
import { callProvider } from './provider-http.ts';
import { forbiddenAddressReason } from './ssrf.ts';

const logger = pino({ level: 'silent' });
const open: FetchConfig = testConfig().fetch;
const guarded: FetchConfig = { ...open, allowPrivateNetwork: false, timeoutMs: 2000 };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const started = performance.now();
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TrawlError);
    // Refusals happen before connecting, so they never wait for a connect timeout.
    expect(performance.now() - started).toBeLessThan(500);
    return (err as TrawlError).message;
  }
  throw new Error('expected the request to be refused');
}

/** Received requests on a server bound to another loopback address: proof a refused hop never connected. */
interface Listener {
  url: string;
  port: number;
  hits: string[];
  stop(): Promise<void>;
}
function listen(hostname: string): Listener {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname,
    port: 0,
    fetch: (req) => {
      hits.push(new URL(req.url).pathname);
      return new Response('internal secret');
    },
  });
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  const port = Number(server.port);
  return {
    url: `http://${host}:${port}`,
    port,
    hits,
    stop: async () => {
      await server.stop(true);
    },
  };
}

let site: FixtureSite;
let internal: Listener; // 127.0.0.2: stands in for an internal service
let internalV6: Listener; // [::1]

beforeAll(() => {
  internal = listen('127.0.0.2');
  internalV6 = listen('::1');
  site = startFixtureSite({
    '/': '<p>public page</p>',
    '/to-internal': () => new Response(null, { status: 302, headers: { location: `${internal.url}/admin` } }),
    '/to-internal-name': () => new Response(null, { status: 302, headers: { location: `http://intranet.test:${internal.port}/admin` } }),
    '/to-metadata': () => new Response(null, { status: 301, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }),
    '/to-mapped': () => new Response(null, { status: 307, headers: { location: `http://[::ffff:127.0.0.2]:${internal.port}/admin` } }),
    '/to-self': () => new Response(null, { status: 302, headers: { location: '/' } }),
  });
});

afterAll(async () => {
  await site.stop();
  await internal.stop();
  await internalV6.stop();
});

describe('with allowPrivateNetwork = false', () => {
  const client = createHttpClient(guarded, logger);

  test.each([
    ['loopback literal', () => site.at('/'), /^Failed to fetch URL: address 127\.0\.0\.1 is not allowed \(loopback address\)$/],
    ['private literal', () => 'http://10.0.0.1/', /address 10\.0\.0\.1 is not allowed \(private network\)/],
    ['metadata literal', () => 'http://169.254.169.254/latest/meta-data/', /address 169\.254\.169\.254 is not allowed \(link-local/],
    ['IPv6 loopback', () => `${internalV6.url}/`, /address ::1 is not allowed \(loopback/],
    [
      'IPv4-mapped loopback',
      () => `http://[::ffff:127.0.0.2]:${internal.port}/`,
      /address ::ffff:7f00:2 is not allowed \(loopback address embedded/,
    ],
    ['decimal loopback', () => `http://2130706434:${internal.port}/`, /address 127\.0\.0\.2 is not allowed/],
    [
      'metadata name',
      () => 'http://metadata.google.internal/computeMetadata/v1/',
      /metadata\.google\.internal is not allowed \(cloud metadata host\)/,
    ],
    ['localhost', () => `http://localhost:${internal.port}/`, /localhost is not allowed \(loopback host name\)/],
  ])('refuses a %s', async (_label, url, message) => {
    expect(await refusal(client.request(url()))).toMatch(message);
  });

  test('a name is checked on the address it resolves to (resolve override → loopback)', async () => {
    const viaName = createHttpClient({ ...guarded, resolve: { 'shop.example': '127.0.0.2' } }, logger);
    expect(await refusal(viaName.request(`http://shop.example:${internal.port}/`))).toBe(
      'Failed to fetch URL: address 127.0.0.2 is not allowed (loopback address)',
    );
  });

  test('nothing internal was ever contacted', () => {
    expect(internal.hits).toEqual([]);
    expect(internalV6.hits).toEqual([]);
    expect(site.hits).toEqual([]);
  });
});

describe('redirect hops', () => {
  // The guard under test refuses everything the real one does, except that 127.0.0.1 (the fixture
  // site) plays a public web server. Anything non-loopback is refused regardless, so a broken
  // guard can never make a test reach outside this machine.
  const policy: AddressPolicy = (ip) => {
    if (ip === '127.0.0.1') return null;
    const real = forbiddenAddressReason(ip);
    return real ?? 'test safety net: only loopback may be contacted';
  };
  const client = createHttpClient({ ...guarded, resolve: { 'intranet.test': '127.0.0.2' } }, logger, { addressPolicy: policy });

  test('the allowed first hop works and a same-site redirect is followed', async () => {
    const res = await client.request(site.at('/to-self'));
    expect(res.text).toBe('<p>public page</p>');
  });

  test.each([
    ['an internal literal', '/to-internal', /^Failed to fetch URL: address 127\.0\.0\.2 is not allowed \(loopback address\)$/],
    ['a name resolving inside', '/to-internal-name', /address 127\.0\.0\.2 is not allowed \(loopback address\)/],
    ['the metadata address', '/to-metadata', /address 169\.254\.169\.254 is not allowed \(link-local/],
    ['an IPv4-mapped internal address', '/to-mapped', /address ::ffff:7f00:2 is not allowed/],
  ])('a redirect into %s is refused', async (_label, path, message) => {
    expect(await refusal(client.request(site.at(path)))).toMatch(message);
    expect(site.hits.at(-1)).toBe(path);
    expect(internal.hits).toEqual([]);
  });
});

describe('a configured service (configuredService: true)', () => {
  const client = createHttpClient(guarded, logger);

  test('its own origin is reached on loopback while the guard is on, and only with the flag', async () => {
    expect((await client.request(`${internal.url}/search`, { configuredService: true })).text).toBe('internal secret');
    expect(await refusal(client.request(`${internal.url}/search`))).toMatch(/address 127\.0\.0\.2 is not allowed/);
    expect(internal.hits).toEqual(['/search']);
    internal.hits.length = 0;
  });

  test("a redirect from it to another origin is checked as usual, and the refusal names the redirect's target", async () => {
    const refused = await refusal(client.request(site.at('/to-internal'), { configuredService: true }));
    expect(refused).toBe(
      `Failed to fetch URL: redirect to ${internal.url}/admin refused: address 127.0.0.2 is not allowed (loopback address)`,
    );
    expect(site.hits.at(-1)).toBe('/to-internal');
    expect(internal.hits).toEqual([]);
  });

  test('a provider call: the answer names where the provider redirected, not the provider as unreachable', async () => {
    const answer = callProvider(client, site.at('/to-internal'), { signal: new AbortController().signal, timeoutMs: 2000 });
    const error = await answer.then(
      () => null,
      (err: TrawlError) => err,
    );
    expect(error?.message).toBe(
      `${new URL(site.url).host} answered with a redirect to ${internal.url}/admin refused: address 127.0.0.2 is not allowed (loopback address)`,
    );
    expect(error?.message).not.toContain('allowPrivateNetwork');
    expect(error?.message).not.toContain('could not reach');
  });
});

describe('with allowPrivateNetwork = true', () => {
  test('loopback, IPv6 loopback and resolve overrides (host and host:port keys) work', async () => {
    const client = createHttpClient({ ...open, resolve: { 'intranet.test': '127.0.0.2', [`v6.test:${internalV6.port}`]: '::1' } }, logger);
    expect((await client.request(`http://intranet.test:${internal.port}/a`)).text).toBe('internal secret');
    expect((await client.request(`http://v6.test:${internalV6.port}/b`)).text).toBe('internal secret');
    expect((await client.request(`${internalV6.url}/c`)).status).toBe(200);
    expect(internal.hits).toEqual(['/a']);
    expect(internalV6.hits).toEqual(['/b', '/c']);
  });
});
