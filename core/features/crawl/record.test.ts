/**
 * Recording finished pages, on SQLite and (with TEST_DATABASE_URL) Postgres: exact max_pages,
 * idempotence, redirect aliases and duplicates, depth relaxation, gap-free sequence numbers under
 * concurrent recordings, and the end states with the job that announces them.
 */
import { afterEach, beforeEach, describe, expect, test, setDefaultTimeout } from 'bun:test';
import type { Storage } from '../../services.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { insertJobs, type Executor } from '../../jobs/store.ts';
import type { JobSpec } from '../../services.ts';
import { NOTIFY_JOB, recordPage, type PageOutcome } from './record.ts';
import { PAGE_JOB, type RunRow } from './rows.ts';
import { createCrawlStore, type CrawlStore } from './store.ts';
import { crawlUrl, type CrawlUrl } from './urls.ts';
import { emptyMetadata } from '../../model/result.ts';
import type { CrawlTables } from './tables.ts';

// Real databases and timers on a shared machine: allow far more than the default 5 s.
setDefaultTimeout(60_000);

const u = (path: string): CrawlUrl => crawlUrl(`http://a.site.test${path}`)!;
const enqueue = (db: Executor, specs: JobSpec[]) => insertJobs(db, specs, 3);

for (const database of testDatabases()) {
  describe(`recording pages on ${database.name}`, () => {
    let storage: Storage;
    let store: CrawlStore;

    beforeEach(async () => {
      storage = await database.open();
      store = createCrawlStore(storage.db);
    });
    afterEach(() => storage.close());

    const start = (maxPages: number, seeds = [u('/')], kind: 'crawl' | 'batch' = 'crawl') =>
      store.create(
        {
          id: crypto.randomUUID(),
          workspace: 'w',
          kind,
          url: seeds[0]!.url,
          request: { maxPages },
          scopeHosts: ['a.site.test'],
          retryOf: null,
          seeds,
        },
        enqueue,
        3,
      );
    const record = (run: RunRow, outcome: Partial<PageOutcome> & { urlHash: string }, maxPages = 100) =>
      recordPage(storage.db, enqueue, {
        crawlId: run.id,
        outcome: 'completed',
        result: { url: 'x', metadata: emptyMetadata(), formats: {}, warnings: [] },
        links: [],
        maxPages,
        maxAttempts: 3,
        ...outcome,
      });
    const jobs = (kind: string) => storage.db.selectFrom('jobs').selectAll().where('kind', '=', kind).execute();
    const state = async (run: RunRow, path: string) =>
      await storage.db
        .withTables<CrawlTables>()
        .selectFrom('crawl_urls')
        .select(['state', 'depth', 'seq'])
        .where('crawl_id', '=', run.id)
        .where('url_hash', '=', u(path).hash)
        .executeTakeFirst();

    test('max_pages is exact: links beyond the limit are never admitted', async () => {
      const run = await start(3);
      const result = await record(run, { urlHash: u('/').hash, links: ['/a', '/b', '/c', '/d'].map(u) }, 3);
      expect(result).toMatchObject({ recorded: true, queued: 2 });
      const after = (await store.byId(run.id))!;
      expect(after).toMatchObject({ admitted: 3, completed: 1, status: 'scraping' });
      expect((await jobs(PAGE_JOB)).length).toBe(3);
      // More links later do not get in either.
      await record(run, { urlHash: u('/a').hash, links: [u('/e')] }, 3);
      expect((await store.byId(run.id))!.admitted).toBe(3);
    });

    test('recording the same page twice counts it once', async () => {
      const run = await start(10);
      expect((await record(run, { urlHash: u('/').hash, links: [u('/a')] })).recorded).toBe(true);
      expect((await record(run, { urlHash: u('/').hash, links: [u('/b')] })).recorded).toBe(false);
      expect(await store.byId(run.id)).toMatchObject({ admitted: 2, completed: 1, seq: 1 });
    });

    test('a redirect target is remembered; a page redirecting onto a known URL is dropped and frees its slot', async () => {
      const run = await start(4);
      await record(run, { urlHash: u('/').hash, redirect: u('/home'), links: [u('/old'), u('/moved')] }, 4);
      expect((await state(run, '/home'))?.state).toBe('alias');
      // /old redirects to /home, which the start page already was.
      const dropped = await record(run, { urlHash: u('/old').hash, redirect: u('/home') }, 4);
      expect(dropped).toMatchObject({ recorded: true, dropped: true });
      expect((await state(run, '/old'))?.state).toBe('duplicate');
      expect(await store.byId(run.id)).toMatchObject({ admitted: 2, completed: 1, seq: 1 });
      // A link to the alias is not admitted again; the freed slot takes a new page.
      await record(run, { urlHash: u('/moved').hash, redirect: u('/landing'), links: [u('/home'), u('/x'), u('/y')] }, 4);
      const after = (await store.byId(run.id))!;
      expect(after.admitted).toBe(4);
      expect((await state(run, '/x'))?.state).toBe('queued');
    });

    test('links beyond the budget wait; a slot given back goes to the shallowest of them', async () => {
      const run = await start(3);
      await record(run, { urlHash: u('/').hash, links: ['/old', '/away', '/a', '/b'].map(u) }, 3);
      expect(await store.byId(run.id)).toMatchObject({ admitted: 3 });
      expect((await state(run, '/a'))?.state).toBe('waiting');
      // /old redirects onto /a, which is waiting: /old is that page, and /a is not fetched again.
      const moved = await record(run, { urlHash: u('/old').hash, redirect: u('/a') }, 3);
      expect(moved.dropped).toBeUndefined();
      expect((await state(run, '/a'))?.state).toBe('alias');
      // /away redirected out of scope: dropped, and its slot goes to /b, the link still waiting.
      expect(await record(run, { urlHash: u('/away').hash, outOfScope: true }, 3)).toMatchObject({
        recorded: true,
        dropped: true,
        queued: 1,
      });
      expect((await state(run, '/away'))?.state).toBe('out_of_scope');
      expect((await state(run, '/b'))?.state).toBe('queued');
      const after = await record(run, { urlHash: u('/b').hash }, 3);
      expect(after.finished).toMatchObject({ status: 'completed', admitted: 3, completed: 3 });
      expect((await jobs(PAGE_JOB)).length).toBe(4);
    });

    test('a page found again by a shorter path keeps the shallower depth', async () => {
      const run = await start(10);
      await record(run, { urlHash: u('/').hash, links: [u('/a'), u('/b')] });
      await record(run, { urlHash: u('/a').hash, links: [u('/deep')] });
      expect((await state(run, '/deep'))?.depth).toBe(2);
      await record(run, { urlHash: u('/b').hash, links: [u('/deep')] });
      expect((await state(run, '/deep'))?.depth).toBe(2);
      const other = await start(10, [u('/'), u('/s')]);
      await record(other, { urlHash: u('/').hash, links: [u('/p')] });
      await record(other, { urlHash: u('/p').hash, links: [u('/q')] });
      expect((await state(other, '/q'))?.depth).toBe(2);
      await record(other, { urlHash: u('/s').hash, links: [u('/q')] });
      expect((await state(other, '/q'))?.depth).toBe(1);
    });

    test('concurrent recordings get gap-free sequence numbers and finish the run exactly once', async () => {
      const seeds = Array.from({ length: 30 }, (_, i) => u(`/p${i}`));
      const run = await start(30, seeds, 'batch');
      const results = await Promise.all(
        seeds.map((s, i) => record(run, { urlHash: s.hash, outcome: i % 5 ? 'completed' : 'failed', error: i % 5 ? undefined : 'boom' })),
      );
      expect(results.filter((r) => r.finished).length).toBe(1);
      const pages = await store.pages(run.id, { offset: 0, limit: 100 });
      expect(pages.map((p) => p.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(await store.byId(run.id)).toMatchObject({ status: 'completed', completed: 24, failed: 6, seq: 30 });
      expect((await jobs(NOTIFY_JOB)).length).toBe(1);
      expect(await store.pages(run.id, { offset: 0, limit: 100, outcome: 'failed' })).toHaveLength(6);
    });

    test('a crawl whose start page fails is failed, with the reason', async () => {
      const run = await start(10);
      const result = await record(run, { urlHash: u('/').hash, outcome: 'failed', error: 'Failed to fetch URL: connection refused' });
      expect(result.finished).toMatchObject({ status: 'failed', error: 'Failed to fetch URL: connection refused', failed: 1 });
      expect((await jobs(NOTIFY_JOB)).length).toBe(1);
    });

    test('nothing is recorded for a cancelled run', async () => {
      const run = await start(10);
      expect((await store.cancel('w', 'crawl', run.id))?.status).toBe('cancelled');
      expect((await record(run, { urlHash: u('/').hash, links: [u('/a')] })).recorded).toBe(false);
      expect(await store.byId(run.id)).toMatchObject({ admitted: 1, completed: 0 });
      expect(await store.get('other-workspace', 'crawl', run.id)).toBeNull();
      expect(await store.get('w', 'batch', run.id)).toBeNull();
    });
  });
}
