/**
 * The results sink: stores every scrape result in the workspace's result store. The response
 * cache is a read of the same rows (core/scrape.ts), so disabling this plugin disables caching;
 * the scraper finds out through the `sink:results` capability. A request with `storeInCache:
 * false` is not stored (it may still be answered from what is stored): a caller who wants no copy
 * of a page kept, or no cache filled with it.
 */
import { z } from 'zod';
import { definePlugin, optionsHash, RESULT_ID, Tokens } from '../../../core/kit.ts';

export const resultsSink = definePlugin({
  kind: 'sink',
  name: 'results',
  description:
    "Stores every scrape result; the response cache reads from it. While it runs, map answers and (cloud mode) every billed call's answer are stored too.",
  provides: ['sink:results'],
  api: {
    requestFields: {
      storeInCache: {
        schema: z
          .boolean()
          .optional()
          .describe(
            'Store this result (default true; the response cache and the results API read stored results); false keeps no copy. A cached answer may still be returned: set `no_cache` too to skip it.',
          ),
      },
    },
  },
  setup(_options, ctx) {
    const store = ctx.resolve(Tokens.Results);
    return {
      async write(doc, result) {
        if (doc.job.request.storeInCache === false) return;
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
