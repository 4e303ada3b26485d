/**
 * POST /v2/map through the official Firecrawl JS SDK (@mendable/firecrawl-js 4.x, unchanged but for
 * `apiUrl`): each `sitemap` mode with the path filter on (Firecrawl's default) and off, over the
 * sections fixture site, asserting the exact URLs listed and that the answer's `id` reads the same
 * links back through the results API (cloud mode, where that API is served), on SQLite and on
 * Postgres when TEST_DATABASE_URL is set. The SDK's `map` does not send `filterByPath`, so the tests
 * with it off post the /v2 body themselves.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Firecrawl, { type MapData } from '@mendable/firecrawl-js';
import type { Storage } from '../../core/services.ts';
import { startMapSectionsSite, MAP_SECTIONS } from '../fixtures/map-sections-site.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

for (const database of testDatabases()) {
  describe(`/v2/map options through the SDK (${database.name})`, () => {
    let site: FixtureSite;
    let storage: Storage;
    let server: TestServer;
    let app: Firecrawl;
    let auth: Record<string, string>;

    beforeAll(async () => {
      site = startMapSectionsSite();
      storage = await database.open();
      server = await startTrawlServer({ storage, overrides: { mode: 'cloud', adminKey: ADMIN_KEY } });
      const { key } = await cloudTenants(() => server).tenant('starter', 1000);
      auth = bearer(key);
      app = new Firecrawl({ apiKey: key, apiUrl: server.url });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      await site.stop();
    });

    const urls = (paths: readonly string[]) => paths.map((path) => site.at(path));

    /** The listed URLs, after checking that the map's id reads back the same links from the result store. */
    async function listed(map: Pick<MapData, 'id' | 'links'>): Promise<string[]> {
      expect(map.id).toMatch(/^[0-9a-f-]{36}$/);
      const stored = await server.get(`/v1/results/${map.id}`, auth);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ id: map.id, endpoint: 'map' });
      const found = map.links.map((link) => link.url);
      expect(stored.body.data.links.map((link: { url: string }) => link.url)).toEqual(found);
      return found;
    }

    /** A /v2/map body the SDK cannot send (`filterByPath`), answered in the same shape. */
    async function posted(body: Record<string, unknown>): Promise<string[]> {
      const res = await server.post('/v2/map', body, auth);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true });
      expect(res.body).not.toHaveProperty('warning');
      return listed(res.body);
    }

    test('include (the default) keeps the /docs/ section from sitemaps, feed and links, with titles', async () => {
      const map = await app.map(site.at('/docs/'));
      expect(await listed(map)).toEqual(urls(MAP_SECTIONS.docsFiltered));
      expect(map.links[0]).toEqual({ url: site.at('/docs/'), title: 'Docs', description: undefined });
      expect(await listed(await app.map(site.at('/docs/'), { sitemap: 'include' }))).toEqual(urls(MAP_SECTIONS.docsFiltered));
    });

    test('/docs without its slash keeps /docs/… but not /docsearch; a file stands for its directory', async () => {
      expect(await listed(await app.map(site.at('/docs')))).toEqual(urls(MAP_SECTIONS.docsFiltered));
      expect(await listed(await app.map(site.at('/docs/guide/index.html')))).toEqual(urls(MAP_SECTIONS.guide));
    });

    test('skip: no sitemap is fetched; the start page, its feed and its links', async () => {
      const before = site.hits.length;
      expect(await listed(await app.map(site.at('/docs/'), { sitemap: 'skip' }))).toEqual(urls(MAP_SECTIONS.docsSkipFiltered));
      expect(site.hits.slice(before).filter((hit) => MAP_SECTIONS.sitemapDocuments.includes(hit as never))).toEqual([]);
    });

    test("only: the sitemaps' URLs and the start URL, which is fetched once, not scraped", async () => {
      const before = site.hits.length;
      const map = await app.map(site.at('/docs/'), { sitemap: 'only' });
      expect(await listed(map)).toEqual(urls(MAP_SECTIONS.docsOnlyFiltered));
      expect(map.links[0]).toEqual({ url: site.at('/docs/'), title: undefined, description: undefined });
      expect(site.hits.slice(before).filter((hit) => hit === '/docs/' || hit === '/feed.xml')).toEqual(['/docs/']);
      // A sitemap as the start URL: read as one, its own path filters nothing.
      expect(await listed(await app.map(site.at('/sitemaps/docs.xml'), { sitemap: 'only' }))).toEqual(urls(MAP_SECTIONS.sitemapStart));
    });

    test('filterByPath: false lists the whole site, in each sitemap mode', async () => {
      const url = site.at('/docs/');
      expect(await posted({ url, filterByPath: false })).toEqual(urls(MAP_SECTIONS.docsWhole));
      expect(await posted({ url, filterByPath: false, sitemap: 'skip' })).toEqual(urls(MAP_SECTIONS.docsSkipWhole));
      expect(await posted({ url, filterByPath: false, sitemap: 'only' })).toEqual(urls(MAP_SECTIONS.docsOnlyWhole));
      // And filterByPath: true is the SDK's answer.
      expect(await posted({ url, filterByPath: true, sitemap: 'only' })).toEqual(urls(MAP_SECTIONS.docsOnlyFiltered));
    });

    test("the id is also the usage row's result and the newest map of the URL", async () => {
      const res = await server.post('/v2/map', { url: site.at('/docs/'), sitemap: 'skip' }, auth);
      const run = await server.get(`/v1/results/run/${res.headers.get('x-usage-id')}`, auth);
      expect(run.body).toMatchObject({ id: res.body.id, endpoint: 'map', run: { endpoint: 'map', credits: 1 } });
      const lookup = await server.get(`/v1/cache/lookup?endpoint=map&url=${encodeURIComponent(site.at('/docs/'))}`, auth);
      expect(lookup.body.id).toBe(res.body.id);
    });

    test('an unknown sitemap mode is a 400 the SDK throws with a clear message', async () => {
      await expect(app.map(site.at('/docs/'), { sitemap: 'sometimes' as never })).rejects.toMatchObject({
        status: 400,
        message: 'Invalid field sitemap: must be "include", "only" or "skip"',
      });
    });
  });
}
