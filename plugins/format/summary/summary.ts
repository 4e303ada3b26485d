/**
 * summary format: a short summary of the page written by the configured language model (the
 * core summarize engine's map-reduce over long pages). Rendered where the DOM is, the output is the
 * page text and its TextRank summary; on the server thread the model writes the summary. Asking for
 * it without a model is a 400 before anything is fetched; a model that fails on the page leaves
 * the extractive summary, with a warning.
 */
import { definePlugin, extractiveSummary, LlmTokens, SUMMARIZE_CREDITS, SUMMARY_LENGTHS } from '../../../core/kit.ts';
import type { PageDocument, SummarizeService } from '../../../core/kit.ts';
import { createTurndown, pageTextForModel } from '../shared/markdown.ts';
import { lazyService, needsModel } from '../shared/model.ts';

const PLUGIN_ID = 'format.summary';
const LENGTH = SUMMARY_LENGTHS.medium;

interface Draft {
  text: string;
  extractive: string;
}

export const summaryFormat = definePlugin({
  kind: 'format',
  name: 'summary',
  description: 'A summary of the page (about 120 words) written by the configured language model.',
  provides: ['format:summary'],
  cost: {
    unit: 'summarize',
    credits: SUMMARIZE_CREDITS,
    description: 'Added to a scrape that asks for the `summary` format: what POST /v1/summarize costs.',
  },
  setup(_options, ctx) {
    const turndown = createTurndown();
    const llm = lazyService(ctx, LlmTokens.Service);
    const summarize = lazyService<SummarizeService>(ctx, LlmTokens.Summarize);
    return {
      validate: () => needsModel(llm(), 'summary'),
      render(doc: PageDocument): Draft {
        const text = pageTextForModel(doc, turndown);
        return { text, extractive: extractiveSummary(text, doc.metadata.language, LENGTH.sentences) };
      },
      async complete(output, doc) {
        const { text, extractive } = output as Draft;
        const provider = llm()?.provider();
        const service = summarize();
        try {
          if (!provider || !service) throw new Error('no language model is configured');
          return (await service.abstractive(provider, text, LENGTH.words, doc.job.signal)).summary;
        } catch (err) {
          if (doc.job.signal.aborted) throw err;
          doc.warn(
            'format',
            PLUGIN_ID,
            `The language model could not summarize the page (${(err as Error).message}); the summary is extractive`,
          );
          return extractive;
        }
      },
    };
  },
});
