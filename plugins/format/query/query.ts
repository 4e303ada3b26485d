/**
 * query format: page Q&A for the request's `query`. Rendered where the DOM is, the answer needs no
 * model — the passages of the content that best match the question (BM25, passages.ts), the best
 * one as the answer. On the server thread a configured language model then answers from the page
 * (answer.ts); if it cannot, the extractive answer stays, with a warning. The output is `{answer,
 * method: "extractive" | "llm", passages: [{text, score}]}`.
 */
import { z } from 'zod';
import { definePlugin, LlmTokens, textOf } from '../../../core/kit.ts';
import type { LlmService, PageDocument } from '../../../core/kit.ts';
import type { QueryOutput } from './answer.ts';
import { bestPassages } from './passages.ts';

/** Pages with at most this much text go to the model whole (when they fit its context). */
const WHOLE_PAGE_CHARS = 60_000;

export const queryFormat = definePlugin({
  kind: 'format',
  name: 'query',
  description:
    "Answers the request's `query` from the page: the best-matching passages (BM25) without a model, the configured language model's answer with one.",
  provides: ['format:query'],
  cost: { unit: 'query', credits: 2, description: 'Added to a scrape that asks for the `query` format (a language-model answer).' },
  options: z.strictObject({
    passages: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(3)
      .describe('Passages returned with the answer (and given to the model when the page is too long to send whole).'),
  }),
  api: {
    requestFields: {
      query: {
        schema: z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(2000)
          .optional()
          .describe('A question about the page, answered by the `query` format in `query_answer`.'),
      },
    },
    resultProperties: {
      query_answer: {
        type: 'string',
        description: '`query` format: the answer; without a model the best-matching passage, empty when no passage matches.',
      },
      query_method: {
        type: 'string',
        enum: ['extractive', 'llm'],
        description: '`query` format: `llm` when the configured language model answered, else `extractive`.',
      },
      query_passages: {
        type: 'array',
        description: '`query` format: the passages that best match the question, best first, each with its BM25 score.',
        items: { type: 'object', required: ['text', 'score'], properties: { text: { type: 'string' }, score: { type: 'number' } } },
      },
    },
  },
  setup(options, ctx) {
    // Resolved on first use on the server thread: content workers, where render runs, have no services.
    let llm: LlmService | null | undefined;
    const service = () => {
      if (llm === undefined) {
        try {
          llm = ctx.resolve(LlmTokens.Service);
        } catch {
          llm = null;
        }
      }
      return llm;
    };
    return {
      validate: (job, name) => (job.request.query ? null : `Format "query" needs ${name('query')}: the question to answer from the page`),
      render(doc: PageDocument): QueryOutput {
        const text = doc.root ? textOf(doc.root) : '';
        const passages = bestPassages(text, doc.job.request.query ?? '', doc.metadata.language, options.passages);
        if (!passages.length) doc.warn('format', 'format.query', 'No passage of the page matches the question');
        return {
          answer: passages[0]?.text ?? '',
          method: 'extractive',
          passages,
          ...(text.length <= WHOLE_PAGE_CHARS ? { context: text } : {}),
        };
      },
      async complete(output, doc) {
        const { context: _context, ...extractive } = output as QueryOutput;
        const llm = service();
        if (!llm?.provider()) return extractive;
        try {
          // Loaded here, on the server thread, never in a content worker.
          const { modelAnswer } = await import('./answer.ts');
          return await modelAnswer(llm, output as QueryOutput, doc);
        } catch (err) {
          if (doc.job.signal.aborted) throw err;
          doc.warn('format', 'format.query', `The language model could not answer (${(err as Error).message}); the answer is extractive`);
          return extractive;
        }
      },
    };
  },
});
