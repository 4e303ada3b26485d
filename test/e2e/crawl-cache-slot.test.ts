/**
 * End to end: a crawl page answered from the result cache takes no per-host politeness slot. The
 * fixture host asks for `Crawl-delay: 1`; a first crawl fetches its three pages a second apart, and
 * a second crawl of the same pages, all of them kept, finishes without waiting those seconds and
 * without fetching any page again.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { waitForRun } from '../fixtures/crawl-site/runs.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

let site: CrawlSite;
let server: TestServer;

beforeAll(async () => {
  site = await startCrawlSite({ pages: 10 });
  server = await startTrawlServer({
    overrides: { fetch: { resolve: site.resolve }, jobs: { pollIntervalMs: 20 }, crawl: { concurrency: 4, perHostConcurrency: 4 } },
  });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

async function timedCrawl(): Promise<{ ms: number; pages: number }> {
  const started = performance.now();
  const res = await server.post('/v1/crawl', { url: site.url('/', HOSTS.sub) });
  expect(res.status).toBe(202);
  const summary = await waitForRun(server, `/v1/crawl/${res.body.id}`);
  expect(summary.status).toBe('completed');
  return { ms: performance.now() - started, pages: summary.completed };
}

test('kept pages wait for no politeness slot', async () => {
  const pageHits = () => site.hits.filter((h) => h.host === HOSTS.sub && h.path !== '/robots.txt').length;
  const first = await timedCrawl();
  expect(first.pages).toBe(3);
  // Crawl-delay: 1 spaces the three fetches.
  expect(first.ms).toBeGreaterThan(1900);
  const fetched = pageHits();
  const second = await timedCrawl();
  expect(second.pages).toBe(3);
  expect(pageHits()).toBe(fetched);
  expect(second.ms).toBeLessThan(1500);
}, 30_000);
