// /v2 in cloud mode through the Firecrawl SDK, on SQLite and Postgres: the same keys and workspaces
// as /v1, calls charged as the routes declare (a scrape, a crawl page by page), 402 read as
// Firecrawl's, and another workspace's crawl not found.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Firecrawl from '@mendable/firecrawl-js';
import type { Storage } from '../../core/services.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const ADMIN_KEY = 'admin-key-for-v2-tests-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
const page = (title: string, links: string[] = []) =>
  `<html><head><title>${title}</title></head><body><main><p>${title} text.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</main></body></html>`;

for (const database of testDatabases()) {
  describe(`/v2 in cloud mode (${database.name})`, () => {
    let site: FixtureSite;
    let storage: Storage;
    let server: TestServer;

    const tenant = async (credits: number) => {
      const workspace = await server.post('/admin/workspaces', { name: 'v2 workspace', plan: 'starter', credits }, admin);
      const key = await server.post(`/admin/workspaces/${workspace.body.id}/keys`, '', admin);
      return { id: workspace.body.id as string, sdk: new Firecrawl({ apiKey: key.body.key, apiUrl: server.url }) };
    };
    const balance = async (id: string) => (await server.get(`/admin/workspaces/${id}`, admin)).body.credits;

    beforeAll(async () => {
      site = startFixtureSite({ '/': page('Home', ['/a']), '/a': page('A') });
      storage = await database.open();
      server = await startTrawlServer({ storage, overrides: { mode: 'cloud', adminKey: ADMIN_KEY } });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
      await site.stop();
    });

    test('a scrape costs one credit, a crawl one per page; an empty balance is a 402 the SDK reads', async () => {
      const rich = await tenant(10);
      expect((await rich.sdk.scrape(site.at('/'))).metadata?.title).toBe('Home');
      expect(await balance(rich.id)).toBe(9);
      const job = await rich.sdk.crawl(site.at('/'), { limit: 5, pollInterval: 1 });
      expect(job.data).toHaveLength(2);
      expect(await balance(rich.id)).toBe(7);
      const broke = await tenant(0);
      await expect(broke.sdk.scrape(site.at('/'))).rejects.toMatchObject({
        status: 402,
        code: 'INSUFFICIENT_CREDITS',
        message: 'Insufficient credits',
      });
      // Another workspace's crawl is not found, and its active crawls are its own.
      await expect(broke.sdk.getCrawlStatus(job.id)).rejects.toMatchObject({ status: 404 });
      expect((await broke.sdk.getActiveCrawls()).crawls).toEqual([]);
      await expect(new Firecrawl({ apiKey: 'trawl_unknown', apiUrl: server.url }).map(site.at('/'))).rejects.toMatchObject({
        status: 401,
        code: 'UNAUTHORIZED',
      });
    });
  });
}
