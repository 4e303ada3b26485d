// The HTTP client against real local servers: bodies, decompression, charsets, size caps and redirects.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import pino from 'pino';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { testConfig } from '../../test/helpers/plugin-context.ts';
import { failure } from '../testing.ts';
import { createHttpClient, type FetchConfig } from './http-client.ts';

const logger = pino({ level: 'silent' });
const baseConfig: FetchConfig = testConfig().fetch;
const client = (over: Partial<FetchConfig> = {}) => createHttpClient({ ...baseConfig, ...over }, logger);

/** 200 MB of zeros, gzip-compressed as a stream (about 200 KB) so building it stays cheap. */
async function gzipBomb(megabytes: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => gzip.once('end', resolve));
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < megabytes; i++) if (!gzip.write(zeros)) await new Promise((r) => gzip.once('drain', r));
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

let site: FixtureSite;
let bomb: Buffer;
const html = '<!doctype html><html><head><title>Hi</title></head><body><p>Grüße aus Köln</p></body></html>';

beforeAll(async () => {
  bomb = await gzipBomb(200);
  site = startFixtureSite({
    '/': html,
    '/echo': (req) => Response.json(Object.fromEntries(req.headers)),
    '/gzip': { body: zlib.gzipSync(html), headers: { 'content-encoding': 'gzip' } },
    '/br': { body: zlib.brotliCompressSync(html), headers: { 'content-encoding': 'br' } },
    '/deflate': { body: zlib.deflateSync(html), headers: { 'content-encoding': 'deflate' } },
    '/deflate-raw': { body: zlib.deflateRawSync(html), headers: { 'content-encoding': 'deflate' } },
    '/zstd': { body: 'x', headers: { 'content-encoding': 'zstd' } },
    '/corrupt-gzip': { body: new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), headers: { 'content-encoding': 'gzip' } },
    '/bomb': { body: new Uint8Array(bomb), headers: { 'content-encoding': 'gzip' } },
    '/big': { body: 'a'.repeat(2000), headers: { 'content-type': 'text/plain' } },
    '/big-chunked': () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.enqueue(new Uint8Array(64 * 1024).fill(97));
          },
        }),
        { headers: { 'content-type': 'text/plain' } },
      ),
    '/cp1251': {
      body: new Uint8Array(iconv.encode('<p>Привет, мир</p>', 'windows-1251')),
      headers: { 'content-type': 'text/html; charset=windows-1251' },
    },
    '/meta-sjis': {
      body: new Uint8Array(iconv.encode('<html><head><meta charset="Shift_JIS"></head><body>日本語</body></html>', 'shift_jis')),
      headers: { 'content-type': 'text/html' },
    },
    '/json': { body: '{"a":"ü"}', headers: { 'content-type': 'application/json' } },
    '/png': { body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), headers: { 'content-type': 'image/png' } },
    '/missing': { body: '<h1>Not here</h1>', status: 404 },
    '/broken': { body: 'oops', status: 503, headers: { 'content-type': 'text/plain' } },
  });
});

afterAll(() => site.stop());

describe('bodies', () => {
  test('plain HTML with headers, media type, charset and text', async () => {
    const res = await client().request(site.at('/'));
    expect(res.status).toBe(200);
    expect(res.mediaType).toBe('text/html');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(html);
    expect(res.charset).toBe('utf-8');
    expect(res.finalUrl).toBe(site.at('/'));
    expect(new TextDecoder().decode(res.body)).toBe(html);
    // A buffer of its own, so a content worker can be handed it without a copy.
    expect(res.body.byteOffset).toBe(0);
    expect(res.body.buffer.byteLength).toBe(res.body.byteLength);
  });

  test('a UTF-8 page is decoded when its text is first read, not before', async () => {
    const res = await client().request(site.at('/'));
    expect(Object.getOwnPropertyDescriptor(res, 'text')?.get).toBeDefined();
    expect(res.text).toBe(html);
    expect(Object.getOwnPropertyDescriptor(res, 'text')?.value).toBe(html);
  });

  test.each(['/gzip', '/br', '/deflate', '/deflate-raw'])('decompresses %s', async (path) => {
    const res = await client().request(site.at(path));
    expect(res.text).toBe(html);
    expect(res.body.byteLength).toBe(new TextEncoder().encode(html).byteLength);
  });

  test('sends user agent, accept-encoding and configured headers; per-request headers win', async () => {
    const res = await client({ userAgent: 'TrawlTest/1', headers: { 'X-Team': 'crawl', 'Accept-Language': 'de' } }).request(
      site.at('/echo'),
      {
        headers: { 'accept-language': 'fr' },
      },
    );
    const seen = JSON.parse(res.text!) as Record<string, string>;
    expect(seen['user-agent']).toBe('TrawlTest/1');
    expect(seen['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen.accept).toContain('text/html');
    expect(seen['x-team']).toBe('crawl');
    expect(seen['accept-language']).toBe('fr');
  });

  test('decodes declared charsets from the header and from <meta>', async () => {
    expect((await client().request(site.at('/cp1251'))).text).toBe('<p>Привет, мир</p>');
    const sjis = await client().request(site.at('/meta-sjis'));
    expect(sjis.text).toContain('日本語');
    expect(sjis.charset).toBe('shift_jis');
  });

  test('text for textual types only', async () => {
    expect((await client().request(site.at('/json'))).text).toBe('{"a":"ü"}');
    const png = await client().request(site.at('/png'));
    expect(png.mediaType).toBe('image/png');
    expect(png.text).toBeUndefined();
    expect(png.body).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  test('error statuses are returned, not thrown', async () => {
    const missing = await client().request(site.at('/missing'));
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('<h1>Not here</h1>');
    expect((await client().request(site.at('/broken'))).status).toBe(503);
  });

  test('HEAD has an empty body', async () => {
    const res = await client().request(site.at('/'), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(0);
  });

  test('unknown and corrupt content encodings fail clearly', async () => {
    expect((await failure(client().request(site.at('/zstd')))).message).toBe('Failed to fetch URL: unsupported content-encoding "zstd"');
    expect((await failure(client().request(site.at('/corrupt-gzip')))).message).toMatch(
      /^Failed to fetch URL: could not decode gzip response body/,
    );
  });
  test('debug lines never carry the credentials written in a URL', async () => {
    const lines: string[] = [];
    const recording = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const withLogs = createHttpClient(baseConfig, recording);
    const target = new URL(site.url);
    target.username = 'alice';
    target.password = 'hunter2';
    expect((await withLogs.request(target.href)).status).toBe(200);
    expect(lines.some((line) => line.includes('fetched'))).toBe(true);
    expect(lines.join('')).not.toContain('hunter2');
  });
});

describe('size cap', () => {
  test('a body at the cap passes, one byte over fails', async () => {
    expect((await client({ maxBodyBytes: 2000 }).request(site.at('/big'))).body.byteLength).toBe(2000);
    const err = await failure(client({ maxBodyBytes: 1999 }).request(site.at('/big')));
    expect(err.message).toBe('Failed to fetch URL: response body exceeds 1999 bytes');
    expect(err.code).toBe('fetch_failed');
  });

  test('an endless chunked body is cut off at the per-request cap', async () => {
    const err = await failure(client().request(site.at('/big-chunked'), { maxBodyBytes: 1_000_000 }));
    expect(err.message).toBe('Failed to fetch URL: response body exceeds 1000000 bytes');
  });

  test('a gzip bomb is stopped on decompressed size, fast and with bounded memory', async () => {
    expect(bomb.byteLength).toBeLessThan(1_000_000); // the compressed body itself is under the cap
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const err = await failure(client({ maxBodyBytes: 1_000_000 }).request(site.at('/bomb')));
    const elapsed = performance.now() - started;
    expect(err.message).toBe('Failed to fetch URL: response body exceeds 1000000 bytes');
    expect(elapsed).toBeLessThan(2000);
    // Inflating it all would hold 200 MB.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(80 * 1024 * 1024);
  });
});

describe('redirects', () => {
  let hops: FixtureSite;
  let other: FixtureSite;
  beforeAll(() => {
    other = startFixtureSite({ '/echo': (req) => Response.json(Object.fromEntries(req.headers)) });
    const redirect =
      (location: string, status = 302) =>
      () =>
        new Response(null, { status, headers: { location } });
    hops = startFixtureSite({
      '/a': redirect('/b', 301),
      '/b': (_req, s) => new Response(null, { status: 302, headers: { location: `${s.url}/c?x=1` } }),
      '/c': redirect('d', 307),
      '/d': '<p>landed</p>',
      '/loop': redirect('/loop'),
      '/ftp': redirect('ftp://example.com/file'),
      '/post-303': redirect('/method', 303),
      '/post-307': redirect('/method', 307),
      '/method': async (req) => Response.json({ method: req.method, body: await req.text() }),
      '/same-origin': redirect('/echo'),
      '/echo': (req) => Response.json(Object.fromEntries(req.headers)),
      '/cross-origin': () => new Response(null, { status: 302, headers: { location: other.at('/echo') } }),
      '/no-location': { body: 'moved somewhere', status: 302 },
    });
  });
  afterAll(async () => {
    await hops.stop();
    await other.stop();
  });

  test('follows a chain with relative and absolute locations', async () => {
    const res = await client().request(hops.at('/a'));
    expect(res.status).toBe(200);
    expect(res.text).toBe('<p>landed</p>');
    expect(res.finalUrl).toBe(hops.at('/d'));
    expect(hops.hits).toEqual(['/a', '/b', '/c?x=1', '/d']);
  });

  test('the redirect limit counts hops', async () => {
    expect((await client({ maxRedirects: 3 }).request(hops.at('/a'))).status).toBe(200);
    expect((await failure(client({ maxRedirects: 2 }).request(hops.at('/a')))).message).toBe('Failed to fetch URL: too many redirects');
  });

  test('a redirect loop ends with too many redirects', async () => {
    const before = hops.hits.length;
    expect((await failure(client().request(hops.at('/loop')))).message).toBe('Failed to fetch URL: too many redirects');
    expect(hops.hits.length - before).toBe(baseConfig.maxRedirects + 1);
  });

  test('only http and https locations are followed', async () => {
    expect((await failure(client().request(hops.at('/ftp')))).message).toBe('Failed to fetch URL: redirect to unsupported scheme ftp:');
  });

  test('303 turns a POST into a GET; 307 keeps method and body', async () => {
    const after303 = await client().request(hops.at('/post-303'), { method: 'POST', body: 'payload' });
    expect(JSON.parse(after303.text!)).toEqual({ method: 'GET', body: '' });
    const after307 = await client().request(hops.at('/post-307'), { method: 'POST', body: 'payload' });
    expect(JSON.parse(after307.text!)).toEqual({ method: 'POST', body: 'payload' });
  });

  test('credentials stay with their origin', async () => {
    const headers = { authorization: 'Bearer secret', 'x-keep': 'yes' };
    const same = JSON.parse((await client().request(hops.at('/same-origin'), { headers })).text!);
    expect(same.authorization).toBe('Bearer secret');
    const cross = JSON.parse((await client().request(hops.at('/cross-origin'), { headers })).text!);
    expect(cross.authorization).toBeUndefined();
    expect(cross['x-keep']).toBe('yes');
  });

  test('a 3xx without Location is returned as is', async () => {
    const res = await client().request(hops.at('/no-location'));
    expect(res.status).toBe(302);
    expect(res.text).toBe('moved somewhere');
  });
});
