/**
 * The summarize feature (POST /v1/summarize): the endpoint family of core's summarize engine
 * (core/llm/summarize), which the `summary` format shares: an abstractive summary from the language
 * model, an extractive one by TextRank. It stores nothing of its own, so it has no config section,
 * migrations or jobs.
 */
import { defineFeature } from '../../feature.ts';
import { SUMMARIZE_CREDITS } from '../../llm/summarize/request.ts';

export const summarizeFeature = defineFeature({
  name: 'summarize',
  description:
    "Summaries (POST /v1/summarize): written by the configured language model (map-reduce over long pages), or the page's most central sentences by TextRank without one.",
  costs: { summarize: { credits: SUMMARIZE_CREDITS, description: 'POST /v1/summarize, per call.' } },
});
