/**
 * End to end, on SQLite and (with TEST_DATABASE_URL) Postgres: finished crawls and batches carry
 * `expires_at` (/v1) and `expiresAt` (/v2) = their end plus `crawl.retentionHours`; once that has
 * passed their status is the usual 404 at once, before any prune, and the history leaves them out;
 * the scheduled `crawl.prune` job then deletes them with their pages and jobs while a run within
 * its retention stays. With retention 0 nothing expires. Time moves by setting end times back.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import type { CrawlTables } from '../../core/features/crawl/tables.ts';
import { PRUNE_JOB } from '../../core/features/crawl/retention.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { waitForRun } from '../fixtures/crawl-site/runs.ts';

setDefaultTimeout(120_000);

const HOUR = 3_600_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

let site: CrawlSite;
beforeAll(async () => {
  site = await startCrawlSite({ pages: 6 });
});
afterAll(() => site.stop());

const boot = (storage: Storage, crawl: Record<string, unknown> = {}) =>
  startTrawlServer({
    storage,
    overrides: {
      fetch: { resolve: site.resolve },
      storage: { cacheTtlSeconds: 0 },
      jobs: { pollIntervalMs: 50, scheduleTickSeconds: 1 },
      crawl,
    },
  });

/** The answer to `path` with `id` swapped for an id that never existed: the not-found shape of today. */
async function notFoundLike(server: TestServer, path: string, id: string) {
  const stranger = crypto.randomUUID();
  const res = await server.get(path.replace(id, stranger));
  expect(res.status).toBe(404);
  return JSON.parse(JSON.stringify(res.body).replaceAll(stranger, id));
}

for (const database of testDatabases()) {
  describe(`crawl retention (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    const db = () => storage.db.withTables<CrawlTables>();
    const endedAgo = (id: string, ms: number) =>
      db()
        .updateTable('crawls')
        .set({ completed_at: new Date(Date.now() - ms).toISOString() })
        .where('id', '=', id)
        .execute();
    const rows = async (id: string) => ({
      run: (await db().selectFrom('crawls').select('id').where('id', '=', id).execute()).length,
      pages: (await db().selectFrom('crawl_urls').select('url_hash').where('crawl_id', '=', id).execute()).length,
      jobs: (await db().selectFrom('jobs').select('id').where('group_id', '=', id).execute()).length,
    });

    beforeAll(async () => {
      storage = await database.open();
      server = await boot(storage);
    }, 30_000);
    afterAll(async () => {
      await server.stop();
      await storage.close();
    });

    test('expiresAt is the end plus the retention; past it the run is a 404 at once and the prune deletes it', async () => {
      const before = Date.now();
      const crawl = await server.post('/v1/crawl', { url: site.url('/'), max_pages: 3 });
      const batch = await server.post('/v2/batch/scrape', { urls: [site.url('/'), site.url('/docs/page-1')] });
      expect([crawl.status, batch.status]).toEqual([202, 200]);
      const [crawlId, batchId] = [crawl.body.id as string, batch.body.id as string];

      // While it runs: now plus the retention, the earliest it can expire.
      const early = (await server.get(`/v1/crawl/${crawlId}`)).body;
      if (early.completed_at === null) {
        expect(Date.parse(early.expires_at)).toBeGreaterThanOrEqual(before + 24 * HOUR);
        expect(Date.parse(early.expires_at)).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
      }

      const ended = await waitForRun(server, `/v1/crawl/${crawlId}`);
      expect(ended.status).toBe('completed');
      expect(ended.expires_at).toBe(plus(ended.completed_at, 24 * HOUR));
      expect((await server.get(`/v2/crawl/${crawlId}`)).body.expiresAt).toBe(ended.expires_at);
      const batchEnded = await waitForRun(server, `/v1/batch/${batchId}`);
      expect(batchEnded.expires_at).toBe(plus(batchEnded.completed_at, 24 * HOUR));
      expect((await server.get(`/v2/batch/scrape/${batchId}`)).body.expiresAt).toBe(batchEnded.expires_at);
      expect((await server.get('/v1/crawl/history')).body.crawls.map((c: { id: string }) => c.id)).toContain(crawlId);

      // Seconds short of its retention it is still there; past it, gone everywhere, its rows still in the database.
      await endedAgo(crawlId, 24 * HOUR - 5_000);
      expect((await server.get(`/v1/crawl/${crawlId}`)).status).toBe(200);
      await endedAgo(crawlId, 24 * HOUR + 1);
      for (const path of [`/v1/crawl/${crawlId}`, `/v1/crawl/${crawlId}/pages`, `/v2/crawl/${crawlId}`, `/v2/crawl/${crawlId}/errors`]) {
        const res = await server.get(path);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: await notFoundLike(server, path, crawlId),
        });
      }
      expect((await server.call(`/v1/crawl/${crawlId}`, { method: 'DELETE' })).status).toBe(404);
      expect((await server.post(`/v1/crawl/${crawlId}/retry`, {})).status).toBe(404);
      const history = (await server.get('/v1/crawl/history')).body;
      expect(history.crawls.map((c: { id: string }) => c.id)).not.toContain(crawlId);
      expect(history.total).toBe(history.crawls.length);
      expect((await rows(crawlId)).pages).toBeGreaterThan(0);

      // The next slot of the prune's schedule (hourly) comes now.
      await storage.db
        .updateTable('schedules')
        .set({ next_due_at: new Date(Date.now() - 1000).toISOString() })
        .where('kind', '=', PRUNE_JOB)
        .execute();
      for (const deadline = Date.now() + 30_000; (await rows(crawlId)).run > 0; await Bun.sleep(100)) {
        if (Date.now() > deadline) throw new Error('the prune did not run');
      }
      expect(await rows(crawlId)).toEqual({ run: 0, pages: 0, jobs: 0 });
      const kept = await server.get(`/v2/batch/scrape/${batchId}`);
      expect(kept.status).toBe(200);
      expect(kept.body.data).toHaveLength(2);
      expect((await rows(batchId)).pages).toBe(2);
      // The slot moved an interval on: pruning is hourly, not at every tick.
      const slot = await storage.db.selectFrom('schedules').select('next_due_at').where('kind', '=', PRUNE_JOB).executeTakeFirstOrThrow();
      expect(Date.parse(slot.next_due_at)).toBeGreaterThan(Date.now() + 50 * 60_000);
    });
  });
}

describe('crawl.retentionHours = 0', () => {
  let storage: Storage;
  let server: TestServer;
  beforeAll(async () => {
    storage = await testDatabases()[0]!.open();
    server = await boot(storage, { retentionHours: 0 });
  }, 30_000);
  afterAll(async () => {
    await server.stop();
    await storage.close();
  });

  test('runs never expire: expires_at is null, expiresAt is left out', async () => {
    const { body } = await server.post('/v1/batch', { urls: [site.url('/')] });
    await waitForRun(server, `/v1/batch/${body.id}`);
    const longAgo = new Date(Date.now() - 10 * 365 * 24 * HOUR).toISOString();
    await storage.db.withTables<CrawlTables>().updateTable('crawls').set({ completed_at: longAgo }).where('id', '=', body.id).execute();
    const v1 = await server.get(`/v1/batch/${body.id}`);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ completed_at: longAgo, expires_at: null });
    const v2 = await server.get(`/v2/batch/scrape/${body.id}`);
    expect(v2.status).toBe(200);
    expect('expiresAt' in v2.body).toBe(false);
  });
});
