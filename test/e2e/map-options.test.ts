/**
 * POST /v1/map's `sitemap` modes (`include`, `skip`, `only`) and path filter (`filter_by_path`)
 * over the sections fixture site, each answer's exact URL list, and the stored answer: its `id`
 * reads the same list back at /v1/results/{id}, the usage row's run and the cache lookup (cloud
 * mode: the results API is cloud-only), and no id while the results sink is disabled.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startMapSectionsSite, MAP_SECTIONS } from '../fixtures/map-sections-site.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

let site: FixtureSite;
let cloud: TestServer;
let unstored: TestServer;
let auth: Record<string, string>;

beforeAll(async () => {
  site = startMapSectionsSite();
  [cloud, unstored] = await Promise.all([
    startTrawlServer({ overrides: { mode: 'cloud', adminKey: ADMIN_KEY } }),
    startTrawlServer({ overrides: { plugins: { sink: { results: false } } } }),
  ]);
  auth = bearer((await cloudTenants(() => cloud).tenant('starter', 1000)).key);
});
afterAll(async () => {
  await Promise.all([cloud.stop(), unstored.stop(), site.stop()]);
});

const urls = (paths: readonly string[]) => paths.map((path) => site.at(path));
const hitsOf = (paths: readonly string[], from: number) => site.hits.slice(from).filter((hit) => paths.includes(hit));

/** POSTs a map, checks that its id reads back the same answer, and gives the listed URLs. */
async function mapped(body: Record<string, unknown>): Promise<string[]> {
  const res = await cloud.post('/v1/map', body, auth);
  expect(res.status).toBe(200);
  const { id, ...answer } = res.body;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const stored = await cloud.get(`/v1/results/${id}`, auth);
  expect(stored.status).toBe(200);
  expect(stored.body).toMatchObject({ id, endpoint: 'map', url: body.url, data: answer });
  return res.body.links.map((link: { url: string }) => link.url);
}

describe('POST /v1/map sitemap and filter_by_path', () => {
  test('include (default), path filter on (default): the /docs/ section from sitemaps, feed and links, not /docsearch', async () => {
    expect(await mapped({ url: site.at('/docs/') })).toEqual(urls(MAP_SECTIONS.docsFiltered));
    // Without the trailing slash (it redirects to /docs/) the section is the same.
    expect(await mapped({ url: site.at('/docs') })).toEqual(urls(MAP_SECTIONS.docsFiltered));
  });

  test('filter_by_path: false lists the whole site', async () => {
    expect(await mapped({ url: site.at('/docs/'), filter_by_path: false })).toEqual(urls(MAP_SECTIONS.docsWhole));
  });

  test('a start URL naming a file lists its directory; a start URL of / lists everything', async () => {
    expect(await mapped({ url: site.at('/docs/guide/index.html') })).toEqual(urls(MAP_SECTIONS.guide));
    const root = await mapped({ url: site.at('/') });
    expect(root).toEqual(await mapped({ url: site.at('/'), filter_by_path: false }));
    expect(root).toEqual(
      urls([
        '/',
        '/docs/api/reference',
        '/about',
        '/docs/',
        '/docs/install',
        '/docs/guide/step-2',
        '/blog/launch',
        '/docsearch',
        '/pricing',
      ]),
    );
  });

  test('skip: no sitemap is fetched; the start page, its feed and its links', async () => {
    const before = site.hits.length;
    expect(await mapped({ url: site.at('/docs/'), sitemap: 'skip' })).toEqual(urls(MAP_SECTIONS.docsSkipFiltered));
    expect(await mapped({ url: site.at('/docs/'), sitemap: 'skip', filter_by_path: false })).toEqual(urls(MAP_SECTIONS.docsSkipWhole));
    expect(hitsOf(MAP_SECTIONS.sitemapDocuments, before)).toEqual([]);
  });

  test("only: the sitemaps' URLs and the start URL, fetched once and not scraped (no title, no feed)", async () => {
    const before = site.hits.length;
    const res = await cloud.post('/v1/map', { url: site.at('/docs/'), sitemap: 'only' }, auth);
    expect(res.body.links[0]).toEqual({ url: site.at('/docs/') });
    expect(hitsOf(['/docs/', '/feed.xml'], before)).toEqual(['/docs/']);
    expect(await mapped({ url: site.at('/docs/'), sitemap: 'only' })).toEqual(urls(MAP_SECTIONS.docsOnlyFiltered));
    expect(await mapped({ url: site.at('/docs/'), sitemap: 'only', filter_by_path: false })).toEqual(urls(MAP_SECTIONS.docsOnlyWhole));
  });

  test("only, from a sitemap URL: its entries first, not filtered by the sitemap's own path", async () => {
    expect(await mapped({ url: site.at('/sitemaps/docs.xml'), sitemap: 'only' })).toEqual(urls(MAP_SECTIONS.sitemapStart));
  });

  test('a path that leaves one URL says the site has others', async () => {
    const res = await cloud.post('/v1/map', { url: site.at('/about'), sitemap: 'only' }, auth);
    expect(res.body).toEqual({
      id: expect.any(String),
      links: [{ url: site.at('/about') }],
      warnings: ['only URLs under /about/ are listed (the path filter); the site has others'],
    });
  });
});

describe('the stored map', () => {
  test("its id is the usage row's result, and the cache lookup finds the newest map of the URL", async () => {
    const res = await cloud.post('/v1/map', { url: site.at('/docs/guide/index.html'), search: 'step' }, auth);
    expect(res.body.links.map((l: { url: string }) => l.url)).toEqual(urls(['/docs/guide/step-2', '/docs/guide/step-1']));
    const run = await cloud.get(`/v1/results/run/${res.headers.get('x-usage-id')}`, auth);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ id: res.body.id, endpoint: 'map', run: { endpoint: 'map', credits: 1 } });
    const lookup = await cloud.get(`/v1/cache/lookup?endpoint=map&url=${encodeURIComponent(site.at('/docs/guide/index.html'))}`, auth);
    expect(lookup.body).toMatchObject({ id: res.body.id, endpoint: 'map', data: { links: res.body.links } });
    const listed = await cloud.get('/v1/results?endpoint=map', auth);
    expect(listed.body.results[0]).toMatchObject({ id: res.body.id, endpoint: 'map', url: site.at('/docs/guide/index.html') });
  });

  test('with the results sink disabled nothing is stored and the answer has no id', async () => {
    const res = await unstored.post('/v1/map', { url: site.at('/docs/'), sitemap: 'skip' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('id');
    expect(res.body.links.map((l: { url: string }) => l.url)).toEqual(urls(MAP_SECTIONS.docsSkipFiltered));
  });
});
