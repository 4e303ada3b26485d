/**
 * The results sink: stores every scrape result in the workspace's result store. The response
 * cache is a read of the same rows (core/scrape.ts), so disabling this plugin disables caching;
 * the scraper finds out through the `sink:results` capability.
 */
import { definePlugin } from '../../../core/plugin.ts';
import { Tokens } from '../../../core/services.ts';
import { optionsHash } from '../../../core/storage/results.ts';
import { RESULT_ID } from '../../../core/data-bag.ts';

export const resultsSink = definePlugin({
  kind: 'sink',
  name: 'results',
  description: 'Stores every scrape result; the response cache reads from it.',
  provides: ['sink:results'],
  setup(_options, ctx) {
    const store = ctx.resolve(Tokens.Results);
    return {
      async write(doc, result) {
        const stored = await store.save({
          workspace: doc.job.workspace,
          endpoint: 'scrape',
          url: doc.job.url,
          // The same function the cache lookup uses, so what is written here is what is found.
          optionsHash: optionsHash(doc.job),
          output: result as unknown as Record<string, unknown>,
        });
        doc.data.set(RESULT_ID, stored.id);
      },
    };
  },
});
