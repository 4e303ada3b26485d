/**
 * extract format: data extracted from the page by the configured language model into JSON that
 * matches the request's `extract.schema`, or a schema generated from `extract.prompt` (core's extract
 * engine, as POST /v1/extract, over the page this scrape already read). Rendered where the DOM is,
 * the output is the page text; on the server thread the model answers. Asking for it without a
 * model, or without a prompt or schema, is a 400 before anything is fetched; a model that fails on
 * the page leaves `null`, with a warning.
 */
import { z } from 'zod';
import { asTrawlError, definePlugin, EXTRACT_CREDITS, extractPrompt, LlmTokens } from '../../../core/kit.ts';
import type { ExtractService, PageDocument } from '../../../core/kit.ts';
import { createTurndown, pageTextForModel } from '../shared/markdown.ts';
import { lazyService, needsModel } from '../shared/model.ts';

const PLUGIN_ID = 'format.extract';

const extractField = z.strictObject({
  prompt: extractPrompt.optional().describe('What to extract, in natural language.'),
  schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema the extracted data must match.'),
});

export const extractFormat = definePlugin({
  kind: 'format',
  name: 'extract',
  description:
    'Data extracted from the page by the configured language model, as JSON matching `extract.schema` (or a schema made from `extract.prompt`).',
  provides: ['format:extract'],
  cost: {
    unit: 'extract',
    credits: EXTRACT_CREDITS,
    description: 'Added to a scrape that asks for the `extract` format: what POST /v1/extract costs.',
  },
  api: {
    requestFields: {
      extract: { schema: extractField.optional().describe('What the `extract` format extracts: `prompt`, `schema` or both.') },
    },
    resultProperties: {
      extract: { description: '`extract` format: the extracted data (null when the model could not answer; see warnings).' },
    },
  },
  setup(_options, ctx) {
    const turndown = createTurndown();
    const llm = lazyService(ctx, LlmTokens.Service);
    const service = lazyService<ExtractService>(ctx, LlmTokens.Extract);
    return {
      validate(job, name) {
        const missing = needsModel(llm(), 'extract');
        if (missing) return missing;
        try {
          service()?.plan(job.request.extract ?? {}, (field) => name(`extract.${field}`));
          return null;
        } catch (err) {
          return (err as Error).message;
        }
      },
      render: (doc: PageDocument) => pageTextForModel(doc, turndown),
      async complete(output, doc) {
        try {
          const extract = service();
          if (!extract) throw new Error('the extract feature is not installed');
          return (await extract.fromText(String(output), extract.plan(doc.job.request.extract ?? {}), doc.job.signal)).data;
        } catch (err) {
          if (doc.job.signal.aborted) throw err;
          doc.warn('format', PLUGIN_ID, `The language model could not extract the data (${asTrawlError(err).message})`);
          return null;
        }
      },
    };
  },
});
