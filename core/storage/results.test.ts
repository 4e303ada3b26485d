// The result store and the options hash the response cache keys on, on every test database.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { ResultStore, Storage } from '../services.ts';
import { createJob } from '../job.ts';
import type { ScrapeRequest } from '../model/request.ts';
import { testDatabases } from '../../test/helpers/databases.ts';
import { createResultStore, optionsHash } from './results.ts';
import { sha256Hex } from './values.ts';

const job = (request: Partial<ScrapeRequest> & { url: string }) =>
  createJob({ formats: ['markdown'], noCache: false, ...request }, 'default', new AbortController().signal);
const HASH = optionsHash(job({ url: 'https://example.com/' }));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('optionsHash', () => {
  test('is a sha256 hex digest and stable', () => {
    expect(HASH).toMatch(/^[0-9a-f]{64}$/);
    expect(optionsHash(job({ url: 'https://example.com/' }))).toBe(HASH);
  });

  test('ignores noCache, format order and duplicate formats', () => {
    const base = optionsHash(job({ url: 'https://example.com/', formats: ['markdown', 'links'] }));
    expect(optionsHash(job({ url: 'https://example.com/', formats: ['links', 'markdown', 'links'], noCache: true }))).toBe(base);
  });

  test('ignores key order at every depth', () => {
    const a = { request: { url: 'https://e.com/', formats: ['text'], attributeSelectors: [{ selector: 'a', attribute: 'href' }] } };
    const b = { request: { attributeSelectors: [{ attribute: 'href', selector: 'a' }], formats: ['text'], url: 'https://e.com/' } };
    expect(optionsHash(a as never)).toBe(optionsHash(b as never));
  });

  test('never equals the hash older code gave the same request (its rows hold the /v1 response)', () => {
    // The pre-model hash: sha256 of the sorted /v1 body with its defaults, no_cache left out.
    const old = sha256Hex(
      JSON.stringify({ formats: ['markdown'], mobile: false, only_main_content: false, screenshot: false, url: 'https://example.com/' }),
    );
    expect(optionsHash(job({ url: 'https://example.com/', onlyMainContent: false, mobile: false, screenshot: false }))).not.toBe(old);
    expect(optionsHash(job({ url: 'https://example.com/' }))).not.toBe(
      sha256Hex(JSON.stringify({ formats: ['markdown'], url: 'https://example.com/' })),
    );
  });

  test('changes with every field that shapes the output', () => {
    const variants = [
      { url: 'https://example.com/other' },
      { url: 'https://example.com/', formats: ['text'] },
      { url: 'https://example.com/', onlyMainContent: true },
      { url: 'https://example.com/', includeSelectors: ['main'] },
      { url: 'https://example.com/', mobile: true },
      { url: 'https://example.com/', actions: [{ type: 'wait', milliseconds: 10 }] },
    ];
    const hashes = new Set([HASH, ...variants.map((v) => optionsHash(job(v)))]);
    expect(hashes.size).toBe(variants.length + 1);
  });
});

for (const database of testDatabases()) {
  describe(database.name, () => {
    let storage: Storage;
    let store: ResultStore;
    beforeEach(async () => {
      storage = await database.open();
      store = createResultStore(storage);
    });
    afterEach(() => storage.close());

    const save = (overrides: Partial<Parameters<ResultStore['save']>[0]> = {}) =>
      store.save({
        workspace: 'default',
        endpoint: 'scrape',
        url: 'https://example.com/',
        optionsHash: HASH,
        output: { markdown: '# Hi' },
        ...overrides,
      });

    const age = (id: string, seconds: number) =>
      storage.db
        .updateTable('results')
        .set({ created_at: new Date(Date.now() - seconds * 1000).toISOString() })
        .where('id', '=', id)
        .execute();

    test('save returns the stored row with a uuid and an ISO timestamp', async () => {
      const output = { markdown: 'Ünïcode ✓', metadata: { title: 'T', word_count: 2, image: null }, links: ['a', 'b'] };
      const saved = await save({ output });
      expect(saved).toMatchObject({ workspace: 'default', endpoint: 'scrape', url: 'https://example.com/', optionsHash: HASH, output });
      expect(saved.id).toMatch(UUID);
      expect(new Date(saved.createdAt).toISOString()).toBe(saved.createdAt);
      expect(await store.get('default', saved.id)).toEqual(saved);
    });

    test('output is stored as JSON text and comes back as an object', async () => {
      const saved = await save({ output: { nested: { list: [1, 2.5, true, null] } } });
      const raw = await storage.db.selectFrom('results').select('output').where('id', '=', saved.id).executeTakeFirstOrThrow();
      expect(typeof raw.output).toBe('string');
      expect((await store.get('default', saved.id))?.output).toEqual({ nested: { list: [1, 2.5, true, null] } });
    });

    test('findFresh returns the newest matching row inside the TTL', async () => {
      const older = await save({ output: { n: 1 } });
      await age(older.id, 60);
      const newer = await save({ output: { n: 2 } });
      expect((await store.findFresh('default', 'scrape', 'https://example.com/', HASH, 3600))?.id).toBe(newer.id);
    });

    test('findFresh respects the TTL, and 0 is never fresh', async () => {
      const saved = await save();
      expect(await store.findFresh('default', 'scrape', 'https://example.com/', HASH, 0)).toBeNull();
      await age(saved.id, 7200);
      expect(await store.findFresh('default', 'scrape', 'https://example.com/', HASH, 3600)).toBeNull();
      expect((await store.findFresh('default', 'scrape', 'https://example.com/', HASH, 10_800))?.id).toBe(saved.id);
    });

    test('findFresh matches only the same workspace, endpoint, URL and options hash', async () => {
      await save();
      expect(await store.findFresh('other', 'scrape', 'https://example.com/', HASH, 3600)).toBeNull();
      expect(await store.findFresh('default', 'crawl', 'https://example.com/', HASH, 3600)).toBeNull();
      expect(await store.findFresh('default', 'scrape', 'https://example.com/x', HASH, 3600)).toBeNull();
      expect(
        await store.findFresh(
          'default',
          'scrape',
          'https://example.com/',
          optionsHash(job({ url: 'https://example.com/', mobile: true })),
          3600,
        ),
      ).toBeNull();
    });

    test('very long URLs are stored and found (the index keys on a hash of the URL)', async () => {
      const url = `https://example.com/?q=${Array.from({ length: 2000 }, () => Math.random().toString(36).slice(2)).join('')}`;
      expect(url.length).toBeGreaterThan(10_000);
      const saved = await save({ url });
      expect((await store.findFresh('default', 'scrape', url, HASH, 60))?.id).toBe(saved.id);
    });

    test('get is scoped to the workspace', async () => {
      const saved = await save();
      expect(await store.get('other', saved.id)).toBeNull();
      expect(await store.get('default', crypto.randomUUID())).toBeNull();
    });

    test('list pages newest first with the total, per workspace and endpoint', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await save({ url: `https://example.com/${i}` })).id);
      await save({ endpoint: 'crawl' });
      await save({ workspace: 'other' });
      const newestFirst = ids.toReversed();

      const pages = await Promise.all([0, 2, 4, 6].map((offset) => store.list('default', { endpoint: 'scrape', offset, limit: 2 })));
      expect(pages.map((p) => p.total)).toEqual([5, 5, 5, 5]);
      expect(pages.map((p) => p.items.map((r) => r.id))).toEqual([
        newestFirst.slice(0, 2),
        newestFirst.slice(2, 4),
        newestFirst.slice(4),
        [],
      ]);

      const all = await store.list('default', { offset: 0, limit: 50 });
      expect(all.total).toBe(6);
      expect(all.items.every((r) => r.workspace === 'default')).toBe(true);
      expect(typeof all.total).toBe('number');
    });

    test('list clamps nonsensical paging instead of running unbounded', async () => {
      await save();
      await save();
      const result = await store.list('default', { offset: -3, limit: 0 });
      expect(result).toMatchObject({ total: 2 });
      expect(result.items).toHaveLength(1);
    });
  });
}
