// The results sink writes each scrape result where the response-cache lookup finds it.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createResultStore, emptyMetadata, optionsHash, Tokens } from '../../../core/kit.ts';
import type { ResultStore, ScrapeResult, Storage } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { resultsSink } from './results.ts';

test('declares itself as the provider of stored results', () => {
  expect(resultsSink).toMatchObject({ kind: 'sink', name: 'results' });
  expect(resultsSink.provides).toContain('sink:results');
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

    test('writes a row the cache lookup for the same request finds', async () => {
      const sink = await resultsSink.setup({}, testContext([[Tokens.Results, store]]));
      const doc = testDocument({ url: 'https://example.com/page', formats: ['text', 'markdown'], onlyMainContent: true });
      const result: ScrapeResult = {
        url: doc.job.url,
        metadata: { ...emptyMetadata(), title: 'Page', statusCode: 200 },
        formats: { markdown: '# Page', text: 'Page' },
        warnings: [],
      };
      await sink.write(doc, result);

      const hit = await store.findFresh('default', 'scrape', 'https://example.com/page', optionsHash(doc.job), 60);
      expect(hit).toMatchObject({ workspace: 'default', endpoint: 'scrape', url: 'https://example.com/page', output: result });
      expect((await store.list('default', { offset: 0, limit: 10 })).total).toBe(1);

      // A request that differs only in noCache and format order is the same cache entry.
      const same = testDocument({ url: 'https://example.com/page', formats: ['markdown', 'text'], onlyMainContent: true, noCache: true });
      expect((await store.findFresh('default', 'scrape', same.job.url, optionsHash(same.job), 60))?.id).toBe(hit!.id);
    });
  });
}
