/**
 * The official Firecrawl SDK (@mendable/firecrawl-js 4.x, unchanged but for `apiUrl`) crawling the plain
 * docs site a new user tries first (test/fixtures/docs-site.ts), with its defaults (main content on):
 * `crawl` returns exactly the pages below the start path whatever the sitemap mode, `limit` is exact from 1
 * to past the number of pages, `maxDiscoveryDepth` counts link hops, `startCrawl` + `getCrawlStatus` read
 * the same pages with and without auto-pagination and with a `?limit=` page size, `batchScrape` returns
 * every URL once, and scraped pages keep their headline.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from '@mendable/firecrawl-js';
import { DOCS_SITE, startDocsSite } from '../fixtures/docs-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

setDefaultTimeout(60_000);

const KEY = 'v2-sdk-crawl-key';
let site: FixtureSite;
let trawl: TestServer;
let app: Firecrawl;

beforeAll(async () => {
  site = startDocsSite();
  trawl = await startTrawlServer({
    overrides: { apiKey: KEY, jobs: { pollIntervalMs: 20 }, crawl: { perHostDelayMs: 0, concurrency: 4, perHostConcurrency: 4 } },
  });
  app = new Firecrawl({ apiKey: KEY, apiUrl: trawl.url });
});
afterAll(async () => {
  await trawl.stop();
  await site.stop();
});

const sorted = (paths: Iterable<string>) => [...paths].sort();
/** The documents' paths, each once (a duplicate would show twice). */
const pathsOf = (docs: Array<{ metadata?: { sourceURL?: string; url?: string } }>) =>
  sorted(docs.map((d) => new URL(d.metadata!.sourceURL ?? d.metadata!.url!).pathname));
/** Fresh pages every time, so each crawl reads the site as it is. */
const FRESH = { maxAge: 0 };
const POLL = { pollInterval: 0.2 };

describe('crawl', () => {
  test('main content on by default: every docs page, whatever the sitemap mode', async () => {
    for (const sitemap of ['include', 'skip', 'only'] as const) {
      const job = await app.crawl(site.at('/docs/'), { sitemap, scrapeOptions: FRESH, ...POLL });
      expect({ sitemap, status: job.status, paths: pathsOf(job.data) }).toEqual({
        sitemap,
        status: 'completed',
        paths: sorted(DOCS_SITE.docs),
      });
      expect(job.total).toBe(DOCS_SITE.docs.length);
    }
  });

  test('the whole site: links only, the sitemap added, the sitemap alone', async () => {
    const whole = { crawlEntireDomain: true, scrapeOptions: FRESH, ...POLL };
    expect(pathsOf((await app.crawl(site.at('/'), { ...whole, sitemap: 'skip' })).data)).toEqual(sorted(DOCS_SITE.linked));
    expect(pathsOf((await app.crawl(site.at('/'), whole)).data)).toEqual(sorted([...DOCS_SITE.linked, DOCS_SITE.sitemapOnly]));
    const only = await app.crawl(site.at('/deep/'), { ...whole, sitemap: 'only' });
    expect(pathsOf(only.data)).toEqual(sorted(['/deep/', ...DOCS_SITE.linked, DOCS_SITE.sitemapOnly]));
  });

  test('limit is exact from 1 to past the number of pages', async () => {
    const reachable = DOCS_SITE.docs.length;
    for (const limit of [1, 2, reachable - 1, reachable, reachable + 1]) {
      const job = await app.crawl(site.at('/docs/'), { limit, scrapeOptions: FRESH, ...POLL });
      expect({ limit, count: job.data.length, total: job.total }).toEqual({
        limit,
        count: Math.min(limit, reachable),
        total: Math.min(limit, reachable),
      });
      expect(new Set(pathsOf(job.data)).size).toBe(job.data.length);
    }
  });

  test('redirects onto a listed page or out of the start path do not use up the limit', async () => {
    const blog = ['/blog/', ...DOCS_SITE.blogPosts];
    const job = await app.crawl(site.at('/blog/'), { limit: blog.length, sitemap: 'skip', scrapeOptions: FRESH, ...POLL });
    // (where each page landed: a link that redirected onto a post still waiting for a slot is that post)
    expect(sorted(job.data.map((d) => new URL(d.metadata!.url!).pathname))).toEqual(sorted(blog));
  });

  test('maxDiscoveryDepth counts link hops from the start page', async () => {
    for (const depth of [0, 1, 2, 5]) {
      const job = await app.crawl(site.at('/deep/'), { maxDiscoveryDepth: depth, sitemap: 'skip', scrapeOptions: FRESH, ...POLL });
      expect({ depth, paths: pathsOf(job.data) }).toEqual({ depth, paths: sorted(['/deep/', ...DOCS_SITE.deep.slice(0, depth)]) });
    }
  });

  test('startCrawl + getCrawlStatus: every page with auto-pagination, page by page without it, and with ?limit=', async () => {
    const started = await app.startCrawl(site.at('/docs/'), { scrapeOptions: FRESH });
    let status = await app.getCrawlStatus(started.id);
    for (let i = 0; i < 200 && status.status === 'scraping'; i++) {
      await Bun.sleep(100);
      status = await app.getCrawlStatus(started.id);
    }
    expect(status.status).toBe('completed');
    expect(pathsOf(status.data)).toEqual(sorted(DOCS_SITE.docs));
    expect(status.expiresAt).toBeString();

    const first = await app.getCrawlStatus(started.id, { autoPaginate: false });
    expect(pathsOf(first.data)).toEqual(sorted(DOCS_SITE.docs));
    expect(first.next ?? null).toBeNull();

    // Pages of 4 through the HTTP `limit` the SDK's `next` links carry on with.
    const pages: string[] = [];
    let next: string | null = `${trawl.url}/v2/crawl/${started.id}?limit=4`;
    while (next) {
      const res = await fetch(next, { headers: { authorization: `Bearer ${KEY}` } });
      const body = (await res.json()) as { data: Array<{ metadata: { sourceURL: string } }>; next?: string };
      expect(body.data.length).toBeLessThanOrEqual(4);
      pages.push(...body.data.map((d) => new URL(d.metadata.sourceURL).pathname));
      next = body.next ?? null;
    }
    expect(sorted(pages)).toEqual(sorted(DOCS_SITE.docs));
  });
});

describe('batch and scrape', () => {
  test('batchScrape returns every URL once, with its headline', async () => {
    const urls = DOCS_SITE.docPages.map((path) => site.at(path));
    const job = await app.batchScrape(urls, { options: FRESH, ...POLL });
    expect(job.status).toBe('completed');
    expect(pathsOf(job.data)).toEqual(sorted(DOCS_SITE.docPages));
    for (const doc of job.data) expect(doc.markdown).toStartWith(`# ${doc.metadata!.title}\n`);
  });

  test("scrape keeps the page's own heading with main content on; the title stays in metadata", async () => {
    const doc = await app.scrape(site.at('/docs/page-1'), FRESH);
    expect(doc.markdown).toStartWith('# Docs Page 1\n');
    expect(doc.metadata!.title).toBe('Docs Page 1');
    const links = await app.scrape(site.at('/docs/'), { formats: ['links'], ...FRESH });
    expect(sorted(new Set(links.links!.map((href) => new URL(href).pathname)))).toEqual(
      sorted(new Set(['/', ...DOCS_SITE.nav, ...DOCS_SITE.docPages, '/about.html'])),
    );
  });

  test('storeInCache: false keeps no copy; the next scrape is fetched afresh and then cached', async () => {
    // (a URL no earlier test scraped: crawl and batch pages are stored like any scrape)
    const url = site.at('/docs/page-2?copy=none');
    expect((await app.scrape(url, { storeInCache: false, maxAge: 0 })).metadata!.cacheState).toBe('miss');
    const hits = site.hits.length;
    expect((await app.scrape(url, { storeInCache: false })).metadata!.cacheState).toBe('miss');
    expect((await app.scrape(url)).metadata!.cacheState).toBe('miss');
    expect((await app.scrape(url)).metadata!.cacheState).toBe('hit');
    expect(site.hits.slice(hits).filter((path) => path === '/docs/page-2?copy=none')).toHaveLength(2);
    // /v1 names it store_in_cache.
    const auth = { authorization: `Bearer ${KEY}` };
    const v1 = { url: site.at('/docs/page-3?copy=none'), store_in_cache: false };
    expect((await trawl.post('/v1/scrape', v1, auth)).headers.get('x-trawl-cache')).toBe('miss');
    expect((await trawl.post('/v1/scrape', v1, auth)).headers.get('x-trawl-cache')).toBe('miss');
  });
});
