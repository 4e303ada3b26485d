// /v2 on the wire, without the SDK: the success and error envelopes byte for byte where clients
// depend on them, and the status pages' `skip`/`limit` pagination with its absolute `next`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const KEY = 'v2-wire-key';
const auth = { authorization: `Bearer ${KEY}` };
const html = (n: number) => `<html><head><title>Page ${n}</title></head><body><main><p>Text of page ${n}.</p></main></body></html>`;

let site: FixtureSite;
let trawl: TestServer;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  site = startFixtureSite({
    ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`/p${i + 1}`, html(i + 1)])),
    // Answers once the test lets it: a run that stays `scraping` for as long as the test needs.
    '/held': async () => {
      await held;
      return new Response(html(9), { headers: { 'content-type': 'text/html' } });
    },
  });
  trawl = await startTrawlServer({
    overrides: { apiKey: KEY, server: { publicUrl: 'https://trawl.example/', maxWebSockets: 1 }, fetch: { timeoutMs: 20_000 } },
  });
});

afterAll(async () => {
  release();
  await trawl.stop();
  await site.stop();
});

async function finished(path: string) {
  for (let i = 0; i < 200; i++) {
    const { body } = await trawl.get(path, auth);
    if (body.status !== 'scraping') return body;
    await Bun.sleep(50);
  }
  throw new Error(`${path} did not finish`);
}

/** The path of an absolute `next` on the public address. */
const local = (next: string) => next.replace('https://trawl.example', '');

describe('envelopes', () => {
  test('errors are {success: false, error, code} for bad keys, unknown paths, bad JSON and bad fields', async () => {
    expect(await trawl.post('/v2/scrape', { url: site.at('/p1') })).toMatchObject({
      status: 401,
      body: { success: false, error: 'Invalid or missing API key', code: 'UNAUTHORIZED' },
    });
    expect(await trawl.get('/v2/nothing-here', auth)).toMatchObject({
      status: 404,
      body: { success: false, error: 'Not found: GET /v2/nothing-here', code: 'NOT_FOUND' },
    });
    expect(await trawl.post('/v2/scrape', '{"url":', auth)).toMatchObject({
      status: 400,
      body: { success: false, error: 'Request body is not valid JSON', code: 'BAD_REQUEST' },
    });
    const missing = await trawl.post('/v2/crawl', { limit: 'ten' }, auth);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      error: 'Missing required field: url',
      code: 'BAD_REQUEST',
      details: [
        { code: 'invalid_type', path: ['url'], message: 'Invalid input: expected string, received undefined' },
        { code: 'invalid_type', path: ['limit'], message: 'Invalid input: expected number, received string' },
      ],
    });
    // /v1 keeps its own envelope.
    expect((await trawl.post('/v1/scrape', {}, auth)).body).toEqual({ error: 'Missing required field: url' });
  });

  test('past the rate limit: 429 in the same envelope, with Retry-After', async () => {
    const limited = await startTrawlServer({ overrides: { rateLimit: { perMinute: 1 } } });
    try {
      expect((await limited.post('/v2/map', { url: site.at('/p1') })).status).toBe(200);
      const refused = await limited.post('/v2/map', { url: site.at('/p1') });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        success: false,
        error: expect.stringMatching(/^Rate limit exceeded: 1 requests per minute/),
        code: 'RATE_LIMIT_EXCEEDED',
      });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.stop();
    }
  });

  test('formats: [] is metadata only', async () => {
    const { body } = await trawl.post('/v2/scrape', { url: site.at('/p2'), formats: [] }, auth);
    expect(Object.keys(body.data)).toEqual(['metadata']);
    expect(body.data.metadata.title).toBe('Page 2');
  });

  test('a scrape is {success: true, data: Document}', async () => {
    const { status, body } = await trawl.post('/v2/scrape', { url: site.at('/p1'), formats: ['markdown'] }, auth);
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        markdown: 'Text of page 1.',
        metadata: {
          title: 'Page 1',
          ogTitle: 'Page 1',
          sourceURL: site.at('/p1'),
          url: site.at('/p1'),
          statusCode: 200,
          contentType: 'text/html; charset=utf-8',
          cacheState: 'miss',
          proxyUsed: 'basic',
          // (Trawl's own: a page of one short line is too little to call anything)
          pageType: 'other',
          contentConfidence: expect.any(Number),
        },
      },
    });
  });

  test('starting answers the id and an absolute url on the public address; cancel answers exactly {status: "cancelled"}', async () => {
    const { body } = await trawl.post('/v2/batch/scrape', { urls: [site.at('/held')] }, auth);
    expect(body).toEqual({ success: true, id: expect.any(String), url: `https://trawl.example/v2/batch/scrape/${body.id}` });
    const cancel = await trawl.call(`/v2/batch/scrape/${body.id}`, { method: 'DELETE', headers: auth });
    expect(cancel).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(Object.keys(cancel.body)).toEqual(['status']);
    expect((await trawl.get(`/v2/batch/scrape/${body.id}`, auth)).body).toMatchObject({ success: true, status: 'cancelled' });
  });
});

describe('watch sockets', () => {
  /** Opens a socket the way the SDK does (key as sub-protocol); resolves with its first message, or null when the handshake fails. */
  const connect = (path: string) =>
    new Promise<{ socket: WebSocket; first: any } | null>((resolve) => {
      const socket = new WebSocket(`${trawl.url.replace(/^http/, 'ws')}${path}`, KEY);
      socket.onmessage = (event) => resolve({ socket, first: JSON.parse(String(event.data)) });
      socket.onerror = () => resolve(null);
    });

  test('the sub-protocol is echoed; past server.maxWebSockets the handshake is refused until one closes', async () => {
    const { body: started } = await trawl.post('/v2/batch/scrape', { urls: [site.at('/held')] }, auth);
    const path = `/v2/batch/scrape/${started.id}`;
    const first = await connect(path);
    expect(first?.socket.protocol).toBe(KEY);
    expect(first?.first).toEqual({
      type: 'catchup',
      data: { success: true, status: 'scraping', completed: 0, total: 1, creditsUsed: 0, expiresAt: expect.any(String), data: [] },
    });
    expect(await connect(path)).toBeNull();
    const closed = new Promise((resolve) => {
      first!.socket.onclose = resolve;
    });
    first!.socket.close();
    await closed;
    let again = null;
    for (let i = 0; i < 50 && !again; i++) again = await connect(path);
    expect(again?.first.type).toBe('catchup');
    again!.socket.close();
    await trawl.call(path, { method: 'DELETE', headers: auth });
  });
});

describe('pagination', () => {
  test('pages of `limit` documents; `next` only while more finished pages exist', async () => {
    const { body: started } = await trawl.post('/v2/batch/scrape', { urls: [1, 2, 3, 4, 5].map((n) => site.at(`/p${n}`)) }, auth);
    const path = `/v2/batch/scrape/${started.id}`;
    const done = await finished(path);
    expect(done).toMatchObject({ status: 'completed', completed: 5, total: 5, creditsUsed: 5 });
    expect(done.data).toHaveLength(5);
    expect(done.next).toBeUndefined();
    const seen: string[] = [];
    let next: string | undefined = `https://trawl.example${path}?limit=2`;
    const nexts: string[] = [];
    while (next) {
      const { body } = await trawl.get(local(next), auth);
      seen.push(...body.data.map((d: any) => d.metadata.sourceURL));
      next = body.next;
      if (next) nexts.push(next);
    }
    expect(nexts).toEqual([`https://trawl.example${path}?skip=2&limit=2`, `https://trawl.example${path}?skip=4&limit=2`]);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5].map((n) => site.at(`/p${n}`)));
    expect((await trawl.get(`${path}?skip=10`, auth)).body).toMatchObject({ data: [] });
    expect((await trawl.get(`${path}?limit=0`, auth)).body).toMatchObject({
      success: false,
      error: expect.stringContaining('Invalid field limit'),
    });
  });

  test('a running job: `next` after a page with documents, none after an empty one (no endless chain)', async () => {
    const { body: started } = await trawl.post('/v2/batch/scrape', { urls: [site.at('/p1'), site.at('/held')] }, auth);
    const path = `/v2/batch/scrape/${started.id}`;
    let first: any;
    for (let i = 0; i < 200; i++) {
      first = (await trawl.get(path, auth)).body;
      if (first.data.length) break;
      await Bun.sleep(25);
    }
    expect(first).toMatchObject({ status: 'scraping', completed: 1, total: 2 });
    expect(first.next).toBe(`https://trawl.example${path}?skip=1&limit=100`);
    const second = (await trawl.get(local(first.next), auth)).body;
    expect(second).toMatchObject({ status: 'scraping', data: [] });
    expect(second.next).toBeUndefined();
    release();
    const done = await finished(path);
    expect(done.data.map((d: any) => d.metadata.title).sort()).toEqual(['Page 1', 'Page 9']);
  });
});

describe('OpenAPI', () => {
  test("/v2 is its own tag group with its own schemas and error envelope; Trawl's own operations are grouped by family", async () => {
    const doc = (await trawl.get('/openapi.json')).body;
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual([
      'Scrape',
      'Crawl',
      'Batch',
      'Map',
      'Search',
      'Extract',
      'Summarize',
      'Lead',
      'Brand',
      'Endpoints',
      'Diff',
      'Watch',
      'Social',
      'Webhooks',
      'Account',
      'Plugins',
      'Service',
      'Firecrawl v2 compatibility',
    ]);
    const v2 = Object.entries(doc.paths).filter(([path]) => path.startsWith('/v2/'));
    expect(v2.map(([path]) => path).sort()).toEqual([
      '/v2/batch/scrape',
      '/v2/batch/scrape/{id}',
      '/v2/batch/scrape/{id}/errors',
      '/v2/crawl',
      '/v2/crawl/active',
      '/v2/crawl/{id}',
      '/v2/crawl/{id}/errors',
      '/v2/map',
      '/v2/scrape',
      '/v2/search',
    ]);
    for (const [, item] of v2)
      for (const operation of Object.values(item as object)) expect(operation.tags).toEqual(['Firecrawl v2 compatibility']);
    expect([doc.paths['/v1/scrape'].post.tags, doc.paths['/v1/crawl/{id}/pages'].get.tags, doc.paths['/health'].get.tags]).toEqual([
      ['Scrape'],
      ['Crawl'],
      ['Service'],
    ]);
    expect(doc.paths['/v2/scrape'].post.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/V2Error',
    });
    expect(Object.keys(doc.components.schemas.V2ScrapeRequest.properties)).toEqual(
      expect.arrayContaining(['url', 'formats', 'onlyMainContent', 'waitFor', 'actions', 'headers', 'location', 'maxAge']),
    );
    expect(Object.keys(doc.components.schemas.V2CrawlRequest.properties)).toEqual(
      expect.arrayContaining(['includePaths', 'limit', 'maxDiscoveryDepth', 'crawlEntireDomain', 'webhook', 'scrapeOptions']),
    );
  });
});
