/**
 * The internal summarize request (camelCase; wire formats parse into it): the page, how long the
 * summary should be, how it is made (`auto`: by the configured model, else extractively), and the
 * scrape formats to return beside it.
 */
import { z } from 'zod';
import { coreRequestFields, httpUrl } from '../../model/request.ts';

/** Credits of one summary (the `summarize` cost unit): a /v1/summarize call and a `summary` format alike. */
export const SUMMARIZE_CREDITS = 2;

export const SUMMARY_LENGTHS = {
  short: { sentences: 3, words: 60 },
  medium: { sentences: 5, words: 120 },
  long: { sentences: 10, words: 250 },
} as const;

export const summarizeRequestFields = {
  url: httpUrl.describe('The page to summarize.'),
  length: z
    .enum(['short', 'medium', 'long'])
    .default('medium')
    .describe('short: about 3 sentences (60 words); medium: 5 (120 words); long: 10 (250 words).'),
  mode: z
    .enum(['auto', 'llm', 'extractive'])
    .default('auto')
    .describe(
      "`llm`: written by the configured language model (503 without one); `extractive`: the page's own most central sentences (TextRank), no model; `auto`: `llm` when a model is configured, else `extractive`.",
    ),
  formats: z
    .array(z.string().min(1))
    .max(20)
    .optional()
    .describe('Scrape formats to return beside the summary, as /v1/scrape (e.g. ["markdown"]).'),
  onlyMainContent: z.boolean().default(true).describe('Summarize only the main content of the page (navigation and footers left out).'),
  noCache: coreRequestFields.noCache.describe('Fetch the page afresh instead of using a cached scrape.'),
  timeoutMs: coreRequestFields.timeoutMs.describe(
    "Time limit of the page's scrape in milliseconds (model calls are bounded by llm.timeoutMs each).",
  ),
};

export const summarizeRequestSchema = z.strictObject(summarizeRequestFields);

export type SummarizeRequest = z.output<typeof summarizeRequestSchema>;
