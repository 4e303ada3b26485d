// The HTTP client when things go wrong: misbehaving servers, timeouts, aborts, refused connections,
// unknown hosts, TLS and malformed input. Every server here listens on 127.0.0.1.
import { TEST_CERT, TEST_KEY } from '../../test/helpers/tls-cert.ts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import pino from 'pino';
import { TrawlError } from '../errors.ts';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { testConfig } from '../../test/helpers/plugin-context.ts';
import { failure } from '../testing.ts';
import { createHttpClient, type FetchConfig } from './http-client.ts';

const logger = pino({ level: 'silent' });
const baseConfig: FetchConfig = testConfig().fetch;
const client = (over: Partial<FetchConfig> = {}) => createHttpClient({ ...baseConfig, ...over }, logger);

/** A TCP server on 127.0.0.1 that answers every connection with exactly these bytes (or nothing). */
async function rawServer(reply: string | null, opts: { thenDestroy?: boolean } = {}) {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    if (reply === null) return;
    socket.write(reply, 'latin1', () => (opts.thenDestroy ? socket.destroy() : socket.end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, port, close: () => server.close() };
}

let site: FixtureSite;
beforeAll(() => {
  site = startFixtureSite({
    '/slow-headers': { body: 'late', delayMs: 5000 },
    '/slow-body': () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('<p>first part'));
            await Bun.sleep(5000);
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/html' } },
      ),
  });
});
afterAll(() => site.stop());

describe('servers without a content type', () => {
  test('a body that starts like HTML is HTML, anything else octet-stream', async () => {
    const body = '<!DOCTYPE html><p>untyped</p>';
    const untyped = await rawServer(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
    try {
      const res = await client().request(untyped.url);
      expect(res.mediaType).toBe('text/html');
      expect(res.text).toBe(body);
    } finally {
      untyped.close();
    }
    const binary = await rawServer('HTTP/1.1 200 OK\r\ncontent-length: 4\r\nconnection: close\r\n\r\n\x00\x01\x02\x03');
    try {
      const res = await client().request(binary.url);
      expect(res.mediaType).toBe('application/octet-stream');
      expect(res.text).toBeUndefined();
    } finally {
      binary.close();
    }
  });
});

describe('timeouts and aborts', () => {
  test('no response headers in time is a connection timeout', async () => {
    const started = performance.now();
    const err = await failure(client({ timeoutMs: 300 }).request(site.at('/slow-headers')));
    expect(err.message).toBe('Failed to fetch URL: connection timeout');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('a server that accepts but never answers times out', async () => {
    const silent = await rawServer(null);
    try {
      const err = await failure(client().request(silent.url, { timeoutMs: 300 }));
      expect(err.message).toBe('Failed to fetch URL: connection timeout');
    } finally {
      silent.close();
    }
  });

  test('a body that stalls after the headers times out with the limit in the message', async () => {
    const err = await failure(client({ timeoutMs: 400 }).request(site.at('/slow-body')));
    expect(err.message).toBe('Failed to fetch URL: timed out after 400 ms');
  });

  test('the caller can abort; its own TrawlError reason comes back unchanged', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect((await failure(client().request(site.at('/slow-headers'), { signal: controller.signal }))).message).toBe(
      'Failed to fetch URL: request aborted',
    );

    const deadline = new AbortController();
    const reason = new TrawlError('timeout', 'Scrape timed out after 50 ms');
    setTimeout(() => deadline.abort(reason), 50);
    expect(await failure(client().request(site.at('/slow-body'), { signal: deadline.signal }))).toBe(reason);
  });
});

describe('network failures', () => {
  test('a closed port is connection refused', async () => {
    const closed = await rawServer(null);
    closed.close();
    expect((await failure(client().request(closed.url))).message).toBe('Failed to fetch URL: connection refused');
  });

  test('an unknown host cannot be resolved', async () => {
    expect((await failure(client().request('http://no-such-host.invalid/page'))).message).toBe(
      'Failed to fetch URL: could not resolve host no-such-host.invalid',
    );
  });

  test('garbage instead of HTTP is an invalid response', async () => {
    const garbage = await rawServer('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    try {
      expect((await failure(client().request(garbage.url))).message).toMatch(/^Failed to fetch URL: invalid HTTP response/);
    } finally {
      garbage.close();
    }
  });

  test('a connection dropped mid-body fails instead of returning a truncated page', async () => {
    const dropper = await rawServer('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 1000\r\n\r\n<p>only part', {
      thenDestroy: true,
    });
    try {
      expect((await failure(client().request(dropper.url))).message).toBe(
        'Failed to fetch URL: connection closed before the response body was complete',
      );
    } finally {
      dropper.close();
    }
  });

  test('a self-signed certificate is a TLS error', async () => {
    const tls = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: { key: TEST_KEY, cert: TEST_CERT }, fetch: () => new Response('secret') });
    try {
      expect((await failure(client().request(`https://127.0.0.1:${tls.port}/`))).message).toMatch(/^Failed to fetch URL: TLS error/);
    } finally {
      await tls.stop(true);
    }
  });

  test('malformed and non-http URLs are refused up front', async () => {
    expect((await failure(client().request('not a url'))).message).toBe('Failed to fetch URL: invalid URL "not a url"');
    expect((await failure(client().request('file:///etc/passwd'))).message).toBe('Failed to fetch URL: unsupported URL scheme file:');
  });
});
