/**
 * End to end: POST /v1/batch — many URLs scraped as one asynchronous job with the scrape options,
 * per-URL failures kept with reasons, paginated results, the stream, cancel, the URL cap, input
 * validation, and batch.completed delivered to a registered webhook.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { allResults, pathOf, readEvents, waitForRun, waitForSummary } from '../fixtures/crawl-site/runs.ts';

// Crawls of real servers on a shared, busy machine: minutes, not the default 5 s.
setDefaultTimeout(120_000);

let site: CrawlSite;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  site = await startCrawlSite({ pages: 60, extras: true });
  receiver = startWebhookReceiver();
  server = await startTrawlServer({
    overrides: {
      fetch: { resolve: site.resolve },
      jobs: { pollIntervalMs: 50, retryBaseMs: 100 },
      crawl: { concurrency: 8, perHostConcurrency: 8, batchMaxUrls: 50 },
    },
  });
}, 30_000);
afterAll(async () => {
  await server.stop();
  await Promise.all([site.stop(), receiver.stop()]);
});

async function batch(body: Record<string, unknown>) {
  const res = await server.post('/v1/batch', body);
  expect(res.status).toBe(202);
  expect(res.headers.get('location')).toBe(`/v1/batch/${res.body.id}`);
  const summary = await waitForRun(server, `/v1/batch/${res.body.id}`);
  return { id: res.body.id as string, summary, results: await allResults(server, `/v1/batch/${res.body.id}?per_page=100`) };
}

test('every listed URL once, with the scrape options; failures keep their reason', async () => {
  const urls = [
    site.url('/'),
    site.url('/docs/page-4'),
    site.url('/docs/page-4/#again'),
    site.url('/gone'),
    'http://127.0.0.1:9/nothing',
    site.url('/private/secret'),
  ];
  const { id, summary, results } = await batch({ urls, formats: ['markdown', 'links'], only_main_content: true });
  expect(summary).toMatchObject({ id, status: 'completed', total: 5, completed: 4, failed: 1 });
  expect(summary.url).toBeUndefined();
  expect(results).toHaveLength(5);
  const byPath = new Map(results.map((r) => [pathOf(r.url), r]));
  expect(byPath.get('/docs/page-4')).toMatchObject({ status: 'completed', depth: 0 });
  expect(byPath.get('/docs/page-4').markdown).toContain('[Page 21]');
  expect(byPath.get('/docs/page-4').markdown).not.toContain('Harbour fixture site');
  expect(Array.isArray(byPath.get('/').links)).toBe(true);
  expect(byPath.get('/gone').metadata.status_code).toBe(404);
  expect(byPath.get('/nothing')).toMatchObject({ status: 'failed', error: 'Failed to fetch URL: connection refused' });
  // A batch scrapes what it is given, like /v1/scrape: robots.txt is for crawling.
  expect(byPath.get('/private/secret').status).toBe('completed');
});

test('results are paginated with a next link only while more exist; the stream replays them', async () => {
  const urls = site.tree
    .pathsWithin(2)
    .slice(0, 25)
    .map((p) => site.url(p));
  const { id, results } = await batch({ urls, formats: ['text'] });
  expect(new Set(results.map((r) => r.url)).size).toBe(25);
  const first = await server.get(`/v1/batch/${id}?per_page=10`);
  expect(first.body.next).toBe(`/v1/batch/${id}?limit=10&offset=10`);
  const last = await server.get(`/v1/batch/${id}?per_page=10&page=3`);
  expect(last.body.data).toHaveLength(5);
  expect(last.body.next).toBeUndefined();
  const events = await readEvents(`${server.url}/v1/batch/${id}/stream`, {}, (e) => e.event === 'end');
  expect(events.filter((e) => e.event === 'page').map((e) => e.data.url)).toEqual(results.map((r) => r.url));
  expect(events.at(-1)!.data).toMatchObject({ id, status: 'completed', total: 25 });
});

test('batch.completed reaches a registered webhook, signed with its secret, and the batch webhook_url', async () => {
  const registered = await server.post('/v1/webhooks', { url: receiver.url('/registered'), events: ['batch.completed'] });
  expect(registered.status).toBe(201);
  receiver.setSecret('/registered', registered.body.secret);
  const { id, summary } = await batch({ urls: [site.url('/'), site.url('/blog/page-1')], webhook_url: receiver.url('/own') });
  const [delivery] = await receiver.waitFor(1, '/registered');
  expect(delivery!.verified).toBe(true);
  expect(delivery!.payload.type).toBe('batch.completed');
  expect(delivery!.payload.data).toEqual({
    id,
    status: 'completed',
    total: 2,
    completed: 2,
    failed: 0,
    created_at: summary.created_at,
    completed_at: summary.completed_at,
    expires_at: summary.expires_at,
  });
  const [own] = await receiver.waitFor(1, '/own');
  expect(own!.payload.data.id).toBe(id);
  await fetch(`${server.url}/v1/webhooks/${registered.body.id}`, { method: 'DELETE' });
});

test('DELETE cancels a running batch', async () => {
  const slow = await startCrawlSite({ pages: 40, delayMs: 150 });
  try {
    const res = await server.post('/v1/batch', { urls: slow.tree.pathsWithin(3).map((p) => slow.url(p)) });
    await waitForSummary(server, `/v1/batch/${res.body.id}`, (s) => s.completed >= 1);
    const cancelled = await fetch(`${server.url}/v1/batch/${res.body.id}`, { method: 'DELETE' });
    expect(await cancelled.json()).toEqual({ id: res.body.id, status: 'cancelled' });
    const summary = (await server.get(`/v1/batch/${res.body.id}`)).body;
    expect(summary.status).toBe('cancelled');
    expect(summary.completed).toBeLessThan(31);
  } finally {
    await slow.stop();
  }
});

describe('validation', () => {
  const cases: Array<[unknown, string]> = [
    [{}, 'Missing required field: urls'],
    [{ urls: [] }, 'Invalid field urls: must list at least one URL'],
    [{ urls: ['http://example.com', 'ftp://example.com'] }, 'Invalid field urls[1]'],
    [{ urls: Array.from({ length: 51 }, (_, i) => `http://example.com/${i}`) }, 'Invalid field urls'],
    [{ urls: ['http://example.com'], formats: ['nope'] }, 'Invalid field formats[0]'],
    [{ urls: ['http://example.com'], url: 'http://example.com' }, 'Unknown field: url'],
  ];
  for (const [body, message] of cases) {
    test(`400 ${message}`, async () => {
      const res = await server.post('/v1/batch', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toStartWith(message);
    });
  }

  test('unknown ids are 404', async () => {
    for (const id of [crypto.randomUUID(), 'nope']) {
      const res = await server.get(`/v1/batch/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toStartWith('Batch not found');
    }
  });
});
