/**
 * End to end over HTTP: authentication, input validation and the error envelope of every status
 * the API promises (400, 401, 404, 413, 422), plus the public endpoints.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

let site: FixtureSite;
let open: TestServer;
let keyed: TestServer;
const KEY = 'trawl_test_key_0123456789';

beforeAll(async () => {
  site = startFixtureSite({
    '/page': '<html><head><title>Hello</title></head><body><p>Hello world</p></body></html>',
    '/slow': { body: '<p>late</p>', delayMs: 4000 },
    '/big': 'x'.repeat(300_000),
  });
  open = await startTrawlServer({ overrides: { fetch: { timeoutMs: 1500, maxBodyBytes: 100_000 } } });
  keyed = await startTrawlServer({ overrides: { apiKey: KEY, server: { maxBodyBytes: 2048 } } });
});
afterAll(async () => {
  await Promise.all([open.stop(), keyed.stop(), site.stop()]);
});

describe('authentication', () => {
  test('a missing key is 401', async () => {
    const res = await keyed.post('/v1/scrape', { url: site.at('/page') });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid or missing API key' });
  });

  test('a wrong key is 401', async () => {
    const res = await keyed.post('/v1/scrape', { url: site.at('/page') }, { authorization: `Bearer ${KEY}x` });
    expect(res.status).toBe(401);
  });

  test('the wrong scheme is 401', async () => {
    const res = await keyed.post('/v1/scrape', { url: site.at('/page') }, { authorization: `Basic ${btoa(`user:${KEY}`)}` });
    expect(res.status).toBe(401);
    const raw = await keyed.post('/v1/scrape', { url: site.at('/page') }, { authorization: KEY });
    expect(raw.status).toBe(401);
  });

  test('authentication runs before body validation', async () => {
    const res = await keyed.post('/v1/scrape', '{not json', {});
    expect(res.status).toBe(401);
    const empty = await keyed.post('/v1/scrape', {});
    expect(empty.status).toBe(401);
  });

  test('the right key is accepted, the scheme case-insensitively', async () => {
    const res = await keyed.post('/v1/scrape', { url: site.at('/page'), formats: ['text'] }, { authorization: `bearer ${KEY}` });
    expect(res.status).toBe(200);
    expect(res.body.text).toContain('Hello world');
  });

  test('health, openapi and docs are public; plugins is not', async () => {
    expect((await keyed.get('/health')).status).toBe(200);
    expect((await keyed.get('/openapi.json')).status).toBe(200);
    expect((await keyed.get('/docs')).status).toBe(200);
    expect((await keyed.get('/v1/plugins')).status).toBe(401);
    expect((await keyed.get('/v1/plugins', { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });
});

describe('input validation (400)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['missing url', {}, 'Missing required field: url'],
    ['url of the wrong type', { url: 42 }, 'Invalid field url: Invalid input: expected string, received number'],
    ['a non-http url', { url: 'ftp://example.com/file' }, 'Invalid field url: must be an absolute http(s) URL'],
    [
      'formats not an array',
      { url: 'https://example.com', formats: 'markdown' },
      'Invalid field formats: Invalid input: expected array, received string',
    ],
    [
      'an unknown format',
      { url: 'https://example.com', formats: ['markdown', 'pdf'] },
      'Invalid field formats[1]: unknown format "pdf". Valid formats: markdown',
    ],
    [
      'a bad boolean',
      { url: 'https://example.com', only_main_content: 'yes' },
      'Invalid field only_main_content: Invalid input: expected boolean, received string',
    ],
    [
      'an empty selector',
      { url: 'https://example.com', include_selectors: [''] },
      'Invalid field include_selectors[0]: selectors must not be empty',
    ],
    ['an unknown field', { url: 'https://example.com', colour: 'blue' }, 'Unknown field: colour'],
    ['a timeout out of range', { url: 'https://example.com', timeout: 5 }, 'Invalid field timeout:'],
  ];
  for (const [name, body, message] of cases) {
    test(name, async () => {
      const res = await open.post('/v1/scrape', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toStartWith(message);
    });
  }

  test('invalid JSON and non-object bodies', async () => {
    expect((await open.post('/v1/scrape', '{"url": ')).body).toEqual({ error: 'Request body is not valid JSON' });
    expect((await open.post('/v1/scrape', '[1,2]')).body).toEqual({ error: 'Request body must be a JSON object' });
    expect((await open.post('/v1/scrape', '')).status).toBe(400);
  });

  test('a browser option with the browser plugin disabled names the plugin', async () => {
    const server = await startTrawlServer({ env: { TRAWL_DISABLE: 'fetcher.browser,format.screenshot' } });
    try {
      const shot = await server.post('/v1/scrape', { url: site.at('/page'), screenshot: true });
      expect(shot.status).toBe(400);
      expect(shot.body.error).toBe('screenshot needs plugin fetcher.browser, which is disabled in the configuration');
    } finally {
      await server.stop();
    }
  });
});

describe('disabled plugins', () => {
  test('a format whose plugin is disabled is a 400 naming the plugin', async () => {
    const server = await startTrawlServer({ env: { TRAWL_DISABLE: 'format.text' } });
    try {
      const res = await server.post('/v1/scrape', { url: site.at('/page'), formats: ['text'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Format "text" needs plugin format.text, which is disabled in the configuration');
      const plugins = await server.get('/v1/plugins');
      expect(plugins.body.plugins.find((p: { id: string }) => p.id === 'format.text').enabled).toBe(false);
    } finally {
      await server.stop();
    }
  });
  test('a request field declared by a disabled plugin is a 400 naming the plugin, on scrape, crawl and batch', async () => {
    const server = await startTrawlServer({ env: { TRAWL_DISABLE: 'transform.main-content' } });
    try {
      const message = 'only_main_content needs plugin transform.main-content, which is disabled in the configuration';
      const scrape = await server.post('/v1/scrape', { url: site.at('/page'), only_main_content: true });
      expect(scrape.status).toBe(400);
      expect(scrape.body.error).toBe(message);
      expect((await server.post('/v1/crawl', { url: site.at('/page'), scrape_options: { only_main_content: true } })).body.error).toBe(
        message,
      );
      expect((await server.post('/v1/batch', { urls: [site.at('/page')], only_main_content: true })).body.error).toBe(message);
      expect((await server.post('/v1/scrape', { url: site.at('/page'), only_main_content: false })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('other statuses', () => {
  test('404 for an unknown path, with the envelope', async () => {
    const res = await open.get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found: GET /v1/nothing-here' });
  });

  test('413 for an oversized request body', async () => {
    const res = await keyed.post(
      '/v1/scrape',
      { url: site.at('/page'), query: 'q'.repeat(1900), exclude_selectors: Array(30).fill('div.some-long-selector') },
      { authorization: `Bearer ${KEY}` },
    );
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('Request body exceeds 2048 bytes');
  });

  test('413 with the JSON envelope for bodies far over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ url: site.at('/page'), query: 'q'.repeat(4 * 1024 * 1024) });
    const declared = await fetch(`${keyed.url}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'Request body exceeds 2048 bytes' });
    // Chunked: no content-length, so the cap is found while reading.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
        for (let i = 0; i < 64; i++) controller.enqueue(piece);
        controller.close();
      },
    });
    const streamed = await fetch(`${keyed.url}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: chunks,
    });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ error: 'Request body exceeds 2048 bytes' });
  });

  test('422 for a refused connection', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
    const port = closed.port;
    await closed.stop(true);
    const res = await open.post('/v1/scrape', { url: `http://127.0.0.1:${port}/`, no_cache: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Failed to fetch URL: connection refused');
  });

  test('422 for a timeout', async () => {
    const res = await open.post('/v1/scrape', { url: site.at('/slow'), no_cache: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Failed to fetch URL: connection timeout');
  });

  test('422 for an unknown host', async () => {
    const res = await open.post('/v1/scrape', { url: 'http://no-such-host.invalid/', no_cache: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Failed to fetch URL: could not resolve host no-such-host.invalid');
  });

  test('422 when the page is larger than the body cap', async () => {
    const res = await open.post('/v1/scrape', { url: site.at('/big'), no_cache: true });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Failed to fetch URL: response body exceeds 100000 bytes');
  });
});

describe('public endpoints', () => {
  test('health reports version, database, plugins and the language-model runtime', async () => {
    const res = await open.get('/health');
    expect(res.body).toMatchObject({ status: 'ok', database: { dialect: 'sqlite', status: 'ok' }, llm: { status: 'not configured' } });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.body.plugins.enabled).toBeGreaterThan(5);
  });

  test('plugins lists what config/default.toml enables, with options as JSON Schema', async () => {
    const res = await open.get('/v1/plugins');
    const ids = res.body.plugins.filter((p: { enabled: boolean }) => p.enabled).map((p: { id: string }) => p.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'fetcher.http',
        'document.html',
        'transform.main-content',
        'format.markdown',
        'format.text',
        'format.links',
        'format.raw-html',
        'sink.results',
      ]),
    );
    const http = res.body.plugins.find((p: { id: string }) => p.id === 'fetcher.http');
    expect(http.options.type).toBe('object');
  });

  test('openapi documents the scrape request from the validating schema', async () => {
    const res = await open.get('/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    const request = res.body.paths['/v1/scrape'].post.requestBody.content['application/json'].schema;
    expect(request.required).toEqual(['url']);
    expect(Object.keys(request.properties)).toEqual(
      expect.arrayContaining(['url', 'formats', 'include_selectors', 'only_main_content', 'no_cache']),
    );
  });
});
