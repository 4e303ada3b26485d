/**
 * The /v1 scrape response, presented from the internal ScrapeResult: snake_case metadata, each
 * format's output under its /v1 field (`json` → `extraction`, with its own metadata in snake_case;
 * `query` → `query_answer` with `query_method` and `query_passages`; every other format under its own name), then what the browser
 * added (`js_results`, `screenshots`, `action_errors`, `screenshot`) and `warnings` as
 * "plugin: message" lines. Crawl and batch pages and cached results go through here too, and so do
 * the scraped pages of a search, each after its search fields (url, title, description, position).
 */
import type { ExtractOutcome } from '../../../core/llm/extract/service.ts';
import type { SearchOutcome } from '../../../core/features/search/service.ts';
import type { SummarizeOutcome } from '../../../core/llm/summarize/service.ts';
import type { LlmUsage } from '../../../core/plugin.ts';
import type { Extraction, Metadata, ScrapeResult } from '../../../core/model/result.ts';
import { renameKeys, toV1Name } from './names.ts';

/** The /v1 field of a format's output: the spec names these two; the rest keep the format's name. */
const FORMAT_FIELDS: Readonly<Record<string, string>> = { json: 'extraction', query: 'query_answer' };
export const v1FormatField = (format: string): string => FORMAT_FIELDS[format] ?? format;

export const presentMetadata = (metadata: Metadata): Record<string, unknown> => renameKeys(metadata, toV1Name);

function presentExtraction(extraction: Extraction): Record<string, unknown> {
  return renameKeys({ ...extraction, metadata: presentMetadata(extraction.metadata) }, toV1Name);
}

const PRESENTERS: Readonly<Record<string, (output: never) => unknown>> = { json: presentExtraction };

/** The query format's output spreads over three fields: the answer, how it was made, the passages behind it. */
function presentQuery(output: { answer?: unknown; method?: unknown; passages?: unknown }): Record<string, unknown> {
  return { query_answer: output.answer ?? '', query_method: output.method ?? 'extractive', query_passages: output.passages ?? [] };
}

export function presentResult(result: ScrapeResult): Record<string, unknown> {
  const body: Record<string, unknown> = { url: result.url, metadata: presentMetadata(result.metadata) };
  for (const [format, output] of Object.entries(result.formats)) {
    if (format === 'query' && output !== null && typeof output === 'object') {
      Object.assign(body, presentQuery(output as Record<string, unknown>));
      continue;
    }
    const present = PRESENTERS[format];
    body[v1FormatField(format)] = present ? present(output as never) : output;
  }
  const { actions } = result;
  if (actions?.jsResults) body.js_results = actions.jsResults;
  if (actions?.screenshots) body.screenshots = actions.screenshots;
  if (actions?.errors?.length) body.action_errors = actions.errors;
  if (result.screenshot !== undefined && !('screenshot' in body)) body.screenshot = result.screenshot;
  if (result.warnings.length) body.warnings = result.warnings.map((m) => `${m.plugin}: ${m.message}`);
  return body;
}

/** The /v1 search response: `{query, provider, results, warnings?}`. */
export function presentSearch(outcome: SearchOutcome): Record<string, unknown> {
  const results = outcome.results.map(({ page, error, ...hit }) => {
    if (error !== undefined) return { ...hit, error };
    if (!page) return hit;
    // The hit's URL is the one the provider listed; where the page led is in metadata.final_url.
    const { url: _scraped, ...scraped } = presentResult(page);
    return { ...hit, ...scraped };
  });
  return { query: outcome.query, provider: outcome.provider, results, ...(outcome.warnings.length ? { warnings: outcome.warnings } : {}) };
}

export const presentUsage = (usage: LlmUsage) => ({ input_tokens: usage.inputTokens, output_tokens: usage.outputTokens });

/** The /v1 extract response: `{url, data, generated_schema?, model, provider, usage, warnings?}`. */
export function presentExtract(outcome: ExtractOutcome): Record<string, unknown> {
  return {
    url: outcome.url,
    data: outcome.data,
    ...(outcome.generatedSchema ? { generated_schema: outcome.generatedSchema } : {}),
    model: outcome.model,
    provider: outcome.provider,
    usage: presentUsage(outcome.usage),
    ...(outcome.warnings.length ? { warnings: outcome.warnings } : {}),
  };
}

/**
 * The /v1 summarize response: the summary and how it was made, then the page as /v1/scrape presents
 * it (metadata, the requested formats).
 */
export function presentSummarize(outcome: SummarizeOutcome): Record<string, unknown> {
  const { url, warnings, ...page } = presentResult(outcome.page);
  const all = [...outcome.warnings, ...((warnings as string[] | undefined) ?? [])];
  return {
    url,
    summary: outcome.summary,
    method: outcome.method,
    length: outcome.length,
    ...(outcome.model ? { model: outcome.model, provider: outcome.provider } : {}),
    ...(outcome.usage ? { usage: presentUsage(outcome.usage) } : {}),
    ...page,
    ...(all.length ? { warnings: all } : {}),
  };
}
