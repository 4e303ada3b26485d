/**
 * The internal extract request (camelCase; wire formats parse into it): the page, what to extract
 * (a natural-language `prompt`, a JSON `schema`, or both) and the scrape options that decide which
 * text the model reads. At least one of prompt and schema is checked by the service, which also
 * checks the schema itself (schema.ts: size, draft, compilable).
 */
import { z } from 'zod';
import { coreRequestFields, httpUrl } from '../../model/request.ts';

const EXTRACT_MAX_PROMPT_CHARS = 8000;

/** Credits of one extraction (the `extract` cost unit): a /v1/extract call and an `extract` format alike. */
export const EXTRACT_CREDITS = 5;

/** What to extract, in natural language: the /v1/extract field and the extract format's alike. */
export const extractPrompt = z.string().trim().min(1, 'must not be empty').max(EXTRACT_MAX_PROMPT_CHARS);

export const extractRequestFields = {
  url: httpUrl.describe('The page to extract from.'),
  prompt: extractPrompt
    .optional()
    .describe(
      'What to extract, in natural language. With no `schema`, a schema is generated from it first and returned as `generated_schema`.',
    ),
  schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'A JSON Schema (draft 2020-12, or draft-07 by `$schema`) the extracted `data` must match; `pattern` uses RE2 syntax. Its size is limited by llm.maxSchemaBytes.',
    ),
  onlyMainContent: z
    .boolean()
    .default(true)
    .describe(
      'Give the model only the main content of the page (as /v1/scrape `only_main_content`); false sends the whole page (navigation, sidebars, footer), several times the tokens.',
    ),
  noCache: coreRequestFields.noCache.describe('Fetch the page afresh instead of using a cached scrape.'),
  timeoutMs: coreRequestFields.timeoutMs.describe(
    "Time limit of the page's scrape in milliseconds (the model calls are bounded by llm.timeoutMs each).",
  ),
};

export const extractRequestSchema = z.strictObject(extractRequestFields);

export type ExtractRequest = z.output<typeof extractRequestSchema>;
