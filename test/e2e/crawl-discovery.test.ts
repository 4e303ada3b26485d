/**
 * End to end on /v1, over the plain docs site a new user would try first (test/fixtures/docs-site.ts):
 * a crawl finds every page in scope whatever the output options say (main content on or off, selectors,
 * formats), the `links` format lists every link of the page in every combination of those options,
 * `max_pages` is exact around the number of reachable pages (redirects onto known pages and out of scope
 * never use up the budget), depth counts link hops, and `sitemap` include / skip / only each give their
 * exact set of pages.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { DOCS_SITE, startDocsSite } from '../fixtures/docs-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { allResults, pathOf, waitForRun } from '../fixtures/crawl-site/runs.ts';

setDefaultTimeout(60_000);

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = startDocsSite();
  server = await startTrawlServer({
    overrides: {
      storage: { cacheTtlSeconds: 0 },
      jobs: { pollIntervalMs: 20 },
      crawl: { perHostDelayMs: 0, concurrency: 4, perHostConcurrency: 4 },
    },
  });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

const sorted = (paths: Iterable<string>) => [...new Set(paths)].sort();

/** The crawl's pages as paths, and its summary. */
async function crawl(body: Record<string, unknown>): Promise<{ paths: string[]; summary: any; results: any[] }> {
  const res = await server.post('/v1/crawl', body);
  expect(res.status).toBe(202);
  const summary = await waitForRun(server, `/v1/crawl/${res.body.id}`);
  const results = await allResults(server, `/v1/crawl/${res.body.id}/pages?per_page=100`);
  const paths = results.map((r) => pathOf(r.url));
  expect(new Set(paths).size).toBe(paths.length);
  return { paths: paths.sort(), summary, results };
}

describe('links', () => {
  const everyLink = sorted(['/', ...DOCS_SITE.nav, ...DOCS_SITE.docPages, '/about.html']);

  test('the links format lists every link of the page in every combination of main content and selectors', async () => {
    const combinations = [
      {},
      { only_main_content: true },
      { include_selectors: ['article'] },
      { exclude_selectors: ['nav', 'header', 'footer'] },
      { only_main_content: true, include_selectors: ['article ul'] },
      { only_main_content: true, exclude_selectors: ['ul'] },
    ];
    for (const options of combinations) {
      for (const formats of [['links'], ['links', 'markdown']]) {
        const res = await server.post('/v1/scrape', { url: site.at('/docs/'), formats, ...options });
        expect(res.status).toBe(200);
        expect({ options, formats, links: sorted(res.body.links.map((l: { href: string }) => pathOf(l.href))) }).toEqual({
          options,
          formats,
          links: everyLink,
        });
      }
    }
  });

  test('image-map areas are links', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/deep/'), formats: ['links'], only_main_content: true });
    expect(res.body.links.map((l: { text: string; href: string }) => `${l.text} ${pathOf(l.href)}`)).toContain(
      'Level 1 on the map /deep/level-1',
    );
  });
});

describe('crawls find every page whatever the output options', () => {
  for (const scrape_options of [
    {},
    { only_main_content: true },
    { only_main_content: true, formats: ['markdown', 'links'] },
    { include_selectors: ['h1'] },
    { exclude_selectors: ['article ul'] },
  ]) {
    test(`the docs section from /docs/ with ${JSON.stringify(scrape_options)}`, async () => {
      const { paths, summary } = await crawl({ url: site.at('/docs/'), include_paths: ['/docs/**'], scrape_options });
      expect(paths).toEqual(sorted(DOCS_SITE.docs));
      expect(summary).toMatchObject({ status: 'completed', total: DOCS_SITE.docs.length, completed: DOCS_SITE.docs.length, failed: 0 });
    });
  }

  test('the whole site from the home page, main content on: every linked page once, redirects dropped', async () => {
    const { paths } = await crawl({ url: site.at('/'), scrape_options: { only_main_content: true } });
    expect(paths).toEqual(sorted(DOCS_SITE.linked));
  });
});

describe('max_pages is exact', () => {
  test('from 1 to past the number of pages in scope', async () => {
    const reachable = DOCS_SITE.docs.length;
    for (const max of [1, 2, reachable - 1, reachable, reachable + 1]) {
      const { paths, summary } = await crawl({
        url: site.at('/docs/'),
        include_paths: ['/docs/**'],
        max_pages: max,
        scrape_options: { only_main_content: true },
      });
      expect({ max, count: paths.length, total: summary.total }).toEqual({
        max,
        count: Math.min(max, reachable),
        total: Math.min(max, reachable),
      });
      expect(paths).toContain('/docs/');
    }
  });

  test('links that redirect onto a known page or out of scope give their slot to the next link', async () => {
    const blog = ['/blog/', ...DOCS_SITE.blogPosts];
    // The blog lists its two redirecting links first: they take the first slots, then hand them on.
    const { summary, results } = await crawl({ url: site.at('/blog/'), include_paths: ['/blog/**'], max_pages: blog.length });
    // (a link that redirected onto a post still waiting for a slot is that post: the pages, where they landed)
    expect(sorted(results.map((r) => pathOf(r.metadata?.final_url ?? r.url)))).toEqual(sorted(blog));
    expect(summary).toMatchObject({ status: 'completed', total: blog.length, completed: blog.length });
  });
});

describe('depth and sitemaps', () => {
  test('max_depth counts link hops from the start page', async () => {
    for (const depth of [0, 1, 2, 5]) {
      const { paths } = await crawl({ url: site.at('/deep/'), max_depth: depth, include_paths: ['/deep/**'] });
      expect({ depth, paths }).toEqual({ depth, paths: sorted(['/deep/', ...DOCS_SITE.deep.slice(0, depth)]) });
    }
  });

  test('sitemap skip (default), include and only', async () => {
    const home = { url: site.at('/'), scrape_options: { only_main_content: true } };
    expect((await crawl(home)).paths).toEqual(sorted(DOCS_SITE.linked));
    expect((await crawl({ ...home, sitemap: 'skip' })).paths).toEqual(sorted(DOCS_SITE.linked));
    expect((await crawl({ ...home, sitemap: 'include' })).paths).toEqual(sorted([...DOCS_SITE.linked, DOCS_SITE.sitemapOnly]));
    // only: the start page and the sitemap's URLs; no link is followed (the deep chain is in neither).
    const only = await crawl({ url: site.at('/deep/'), sitemap: 'only' });
    expect(only.paths).toEqual(sorted(['/deep/', ...DOCS_SITE.linked, DOCS_SITE.sitemapOnly]));
    const bad = await server.post('/v1/crawl', { url: site.at('/'), sitemap: 'always' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toStartWith('Invalid field sitemap');
  });
});
