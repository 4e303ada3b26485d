/**
 * End to end: the life of a crawl — states, cancel, retry, the SSE stream with Last-Event-ID
 * resume, history, 404 for unknown and foreign ids, and the crawl.completed / crawl.failed events
 * delivered (signed) to the crawl's webhook_url.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { CrawlTokens } from '../../core/features/crawl/index.ts';
import { v1CrawlSchema } from '../../server/wire/v1/request.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { allResults, pathOf, readEvents, waitForRun, waitForSummary, type SseEvent } from '../fixtures/crawl-site/runs.ts';

// Crawls of real servers on a shared, busy machine: minutes, not the default 5 s.
setDefaultTimeout(120_000);

const SIGNING_SECRET = `whsec_${btoa('crawl-lifecycle-test-secret-0123456789')}`;
let site: CrawlSite;
let slow: CrawlSite;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  site = await startCrawlSite({ pages: 40 });
  slow = await startCrawlSite({ pages: 60, delayMs: 40 });
  receiver = startWebhookReceiver();
  server = await startTrawlServer({
    overrides: {
      fetch: { resolve: site.resolve },
      storage: { cacheTtlSeconds: 0 },
      jobs: { pollIntervalMs: 50 },
      crawl: { concurrency: 4, perHostConcurrency: 2 },
      webhooks: { signingSecret: SIGNING_SECRET },
    },
  });
}, 30_000);
afterAll(async () => {
  await server.stop();
  await Promise.all([site.stop(), slow.stop(), receiver.stop()]);
});

async function start(body: Record<string, unknown>): Promise<string> {
  const res = await server.post('/v1/crawl', body);
  expect(res.status).toBe(202);
  return res.body.id;
}

describe('cancel', () => {
  test('DELETE stops a running crawl: no page is recorded afterwards and queued pages are dropped', async () => {
    const id = await start({ url: slow.url('/'), max_pages: 60 });
    await waitForSummary(server, `/v1/crawl/${id}`, (s) => s.status === 'scraping' && s.completed >= 3);
    const res = await fetch(`${server.url}/v1/crawl/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, status: 'cancelled' });
    const right = (await server.get(`/v1/crawl/${id}?per_page=1`)).body;
    await Bun.sleep(400);
    const later = (await server.get(`/v1/crawl/${id}?per_page=1`)).body;
    expect(later).toMatchObject({ status: 'cancelled', completed: right.completed, failed: right.failed });
    expect(later.completed).toBeLessThan(60);
    expect(later.completed_at).not.toBeNull();
    const queued = await server.trawl.storage.db
      .selectFrom('jobs')
      .select('id')
      .where('group_id', '=', id)
      .where('status', '=', 'queued')
      .execute();
    expect(queued).toEqual([]);
    const again = await fetch(`${server.url}/v1/crawl/${id}`, { method: 'DELETE' });
    expect(again.status).toBe(200);
    const events = await readEvents(`${server.url}/v1/crawl/${id}/stream`, {}, (e) => e.event === 'end');
    expect(events.at(-1)!.data.status).toBe('cancelled');
    expect(events.filter((e) => e.event === 'page')).toHaveLength(later.completed + later.failed);
  });

  test('cancelling a finished crawl is a conflict', async () => {
    const id = await start({ url: site.url('/'), max_pages: 3 });
    await waitForRun(server, `/v1/crawl/${id}`);
    const res = await fetch(`${server.url}/v1/crawl/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(`Crawl ${id} already completed`);
  });
});

describe('retry', () => {
  test('409 while the crawl runs; afterwards a new crawl with the same configuration', async () => {
    const id = await start({ url: slow.url('/'), max_pages: 12, max_depth: 2, scrape_options: { formats: ['text'] } });
    const busy = await server.post(`/v1/crawl/${id}/retry`, {});
    expect(busy.status).toBe(409);
    expect(busy.body.error).toContain('still');
    const first = await waitForRun(server, `/v1/crawl/${id}`);
    const retried = await server.post(`/v1/crawl/${id}/retry`, {});
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: 'queued', url: slow.url('/'), retry_of: id });
    expect(retried.body.id).not.toBe(id);
    const second = await waitForRun(server, `/v1/crawl/${retried.body.id}`);
    expect(second).toMatchObject({ status: 'completed', total: first.total, retry_of: id });
    const pages = await allResults(server, `/v1/crawl/${retried.body.id}/pages?per_page=100`);
    expect(pages.every((p) => typeof p.text === 'string' && p.markdown === undefined)).toBe(true);
  });
});

describe('stream', () => {
  test('one event per page, then the end state; a reconnect with Last-Event-ID resumes without gaps', async () => {
    const id = await start({ url: slow.url('/'), max_pages: 60 });
    const url = `${server.url}/v1/crawl/${id}/stream`;
    const firstPart = await readEvents(url, {}, (_e, all) => all.filter((x) => x.event === 'page').length >= 8);
    const lastId = firstPart.at(-1)!.id!;
    const rest = await readEvents(url, { 'last-event-id': lastId }, (e) => e.event === 'end');
    const pages = [...firstPart, ...rest].filter((e) => e.event === 'page');
    expect(pages.map((e) => Number(e.id))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(pages.map((e) => e.data.url)).size).toBe(60);
    expect(pages.every((e) => e.data.status === 'completed' && typeof e.data.markdown === 'string')).toBe(true);
    const end = rest.at(-1)!;
    expect(end.id).toBeUndefined();
    expect(end.data).toMatchObject({ id, status: 'completed', total: 60, completed: 60, failed: 0 });
  });

  test('a finished crawl streams all its pages at once; last_event_id works as a query parameter', async () => {
    const id = await start({ url: site.url('/'), max_pages: 10 });
    await waitForRun(server, `/v1/crawl/${id}`);
    const all = await readEvents(`${server.url}/v1/crawl/${id}/stream`, {}, (e) => e.event === 'end');
    expect(all.map((e) => e.event)).toEqual([...Array(10).fill('page'), 'end']);
    const tail = await readEvents(`${server.url}/v1/crawl/${id}/stream?last_event_id=7`, {}, (e) => e.event === 'end');
    expect(tail.map((e: SseEvent) => e.id ?? 'end')).toEqual(['8', '9', '10', 'end']);
    const res = await fetch(`${server.url}/v1/crawl/${id}/stream`, { headers: { 'last-event-id': 'yesterday' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toStartWith('Invalid field last_event_id');
  });
});

describe('history and ids', () => {
  test("history lists the workspace's crawls newest first, paginated", async () => {
    const ids = [await start({ url: site.url('/'), max_pages: 1 }), await start({ url: site.url('/blog/page-1'), max_pages: 1 })];
    const res = await server.get('/v1/crawl/history?per_page=2');
    expect(res.status).toBe(200);
    expect(res.body.crawls.map((c: any) => c.id)).toEqual(ids.reverse());
    expect(res.body.crawls[0]).toMatchObject({ url: site.url('/blog/page-1'), total: 1 });
    expect(res.body.total).toBeGreaterThan(2);
    expect(res.body.next).toBe('/v1/crawl/history?limit=2&offset=2');
    const next = await server.get(res.body.next);
    expect(next.body.crawls).toHaveLength(2);
    expect(next.body.crawls[0].created_at <= res.body.crawls[1].created_at).toBe(true);
    expect((await server.get('/v1/crawl/history?per_page=500')).status).toBe(400);
  });

  test("unknown ids and another workspace's crawls are 404 everywhere", async () => {
    const service = server.trawl.container.resolve(CrawlTokens.Service);
    const foreign = await service.startCrawl(v1CrawlSchema(service).parse({ url: site.url('/'), max_pages: 1 }), 'another-workspace');
    const history = await server.get('/v1/crawl/history?per_page=100');
    expect(history.body.crawls.some((c: any) => c.id === foreign.id)).toBe(false);
    for (const id of [foreign.id, crypto.randomUUID(), 'not-a-uuid', 'x'.repeat(5000)]) {
      for (const [method, path] of [
        ['GET', ''],
        ['GET', '/pages'],
        ['GET', '/stream'],
        ['DELETE', ''],
        ['POST', '/retry'],
      ] as const) {
        const res = await fetch(`${server.url}/v1/crawl/${id}${path}`, { method });
        expect(res.status).toBe(404);
        expect((await res.json()).error).toStartWith('Crawl not found');
      }
    }
    const batch = await server.post('/v1/batch', { urls: [site.url('/')] });
    expect((await server.get(`/v1/crawl/${batch.body.id}`)).status).toBe(404);
  });

  test('bad pagination parameters are 400', async () => {
    const id = await start({ url: site.url('/'), max_pages: 1 });
    for (const query of ['page=0', 'per_page=0', 'per_page=101', 'page=abc', 'status=done']) {
      const res = await server.get(`/v1/crawl/${id}/pages?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toStartWith('Invalid field');
    }
  });
});

describe('events', () => {
  test('crawl.completed reaches webhook_url, signed, with the crawl summary', async () => {
    receiver.setSecret('/done', SIGNING_SECRET);
    const id = await start({ url: site.url('/'), max_pages: 5, webhook_url: receiver.url('/done') });
    const summary = await waitForRun(server, `/v1/crawl/${id}`);
    const [delivery] = await receiver.waitFor(1, '/done');
    expect(delivery!.verified).toBe(true);
    expect(delivery!.payload).toMatchObject({ type: 'crawl.completed' });
    expect(delivery!.payload.data).toEqual({
      id,
      status: 'completed',
      url: site.url('/'),
      total: 5,
      completed: 5,
      failed: 0,
      created_at: summary.created_at,
      completed_at: summary.completed_at,
      expires_at: summary.expires_at,
      error: null,
    });
  });

  test('crawl.failed when not a single page could be scraped', async () => {
    const id = await start({ url: 'http://127.0.0.1:9/', webhook_url: receiver.url('/failed') });
    await waitForRun(server, `/v1/crawl/${id}`);
    const [delivery] = await receiver.waitFor(1, '/failed');
    expect(delivery!.payload.type).toBe('crawl.failed');
    expect(delivery!.payload.data).toMatchObject({ id, status: 'failed', completed: 0, failed: 1 });
    expect(delivery!.payload.data.error).toContain('connection refused');
    expect(pathOf(delivery!.payload.data.url)).toBe('/');
  });
});
