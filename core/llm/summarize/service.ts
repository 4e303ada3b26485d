/**
 * POST /v1/summarize behind the route. The page is scraped through the Scraper; then either the
 * configured language model writes the summary — one call for a page that fits its context, else
 * map-reduce: each part summarized, then the part summaries into one — or, without a model (or with
 * `mode: "extractive"`), the page's most central sentences are picked by TextRank and kept in page
 * order. The answer says which method made it.
 */
import { mapBounded } from '../../bounded.ts';
import { TrawlError } from '../../errors.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { FieldNamer, LlmUsage } from '../../plugin.ts';
import { internalNames, type Scraper } from '../../scrape.ts';
import { sentencesOf } from '../../sentences.ts';
import { pageParts, splitText, withoutHeader } from '../chunks.ts';
import { scrapeFor } from '../../scrape-for.ts';
import { checkedSchema } from '../schema.ts';
import type { LlmService, Provider } from '../service.ts';
import { SUMMARY_LENGTHS, type SummarizeRequest } from './request.ts';
import { topSentences } from './textrank.ts';

export interface SummarizeOutcome {
  summary: string;
  method: 'llm' | 'extractive';
  length: SummarizeRequest['length'];
  /** The scraped page with only the formats the request asked for. */
  page: ScrapeResult;
  model?: string;
  provider?: string;
  usage?: LlmUsage;
  warnings: string[];
  cached: boolean;
  /** Milliseconds spent on the page (`scrape`) and on the summary (`llm` or `extractive`). */
  timings: Record<string, number>;
}

/** Sentences ranked at most (the first ones of a very long page); TextRank's cost grows with their pairs. */
const MAX_SENTENCES = 1500;
const MIN_WORDS = 4;
const MAX_REDUCE_ROUNDS = 3;
const MAX_WORDS = 80;
const SUMMARY_SCHEMA = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };
const SYSTEM_PROMPT =
  'You summarize web pages faithfully: only what the page says, in plain prose, in the page\'s language, without an introduction such as "This page".';

/** The page's most central sentences, in page order. */
export function extractiveSummary(text: string, language: string | null | undefined, sentences: number): string {
  const candidates = sentencesOf(text, language, MAX_SENTENCES).filter((s) => {
    const words = s.text.split(/\s+/).length;
    return !s.heading && words >= MIN_WORDS && words <= MAX_WORDS;
  });
  return topSentences(
    candidates.map((s) => s.text),
    sentences,
  )
    .map((i) => candidates[i]!.text)
    .join(' ');
}

export class SummarizeService {
  private schema?: ReturnType<typeof checkedSchema>;

  constructor(private readonly deps: { scraper: Scraper; llm: LlmService }) {}

  async summarize(
    request: SummarizeRequest,
    workspace: string,
    signal?: AbortSignal,
    name: FieldNamer = internalNames,
  ): Promise<SummarizeOutcome> {
    const { llm, scraper } = this.deps;
    const provider = request.mode === 'llm' ? llm.require() : request.mode === 'auto' ? llm.provider() : null;
    const own = provider ? 'llm' : 'text';
    const asked = request.formats ?? [];
    const formats = [...new Set([...asked, own])];
    const started = performance.now();
    const scraped = await scrapeFor(
      scraper,
      {
        url: request.url,
        formats,
        onlyMainContent: request.onlyMainContent || undefined,
        noCache: request.noCache,
        timeoutMs: request.timeoutMs,
      },
      workspace,
      signal,
      name,
    );
    const { result } = scraped;
    const text = String(result.formats[own] ?? '');
    const page = { ...result, formats: Object.fromEntries(Object.entries(result.formats).filter(([format]) => asked.includes(format))) };
    const target = SUMMARY_LENGTHS[request.length];
    const fetched = performance.now();
    const base = { length: request.length, page, cached: scraped.cached };
    const timings = (method: string) => ({ scrape: Math.round(fetched - started), [method]: Math.round(performance.now() - fetched) });

    if (!provider) {
      const summary = extractiveSummary(text, result.metadata.language, target.sentences);
      if (!summary) throw new TrawlError('unprocessable', 'The page has no sentences to summarize');
      return { ...base, summary, method: 'extractive', warnings: [], timings: timings('extractive') };
    }
    if (!withoutHeader(text)) throw new TrawlError('unprocessable', 'The page has no text to summarize');
    const written = await this.abstractive(provider, text, target.words, signal);
    return { ...base, ...written, method: 'llm', timings: timings('llm') };
  }

  /** One call when the page fits, else each part and then the parts' summaries. `text` is in the `llm` format's shape. */
  async abstractive(
    provider: Provider,
    text: string,
    words: number,
    signal?: AbortSignal,
  ): Promise<{ summary: string; model: string; provider: string; usage: LlmUsage; warnings: string[] }> {
    const { llm } = this.deps;
    this.schema ??= checkedSchema(SUMMARY_SCHEMA, Infinity, 'summary schema');
    const schema = this.schema;
    const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
    const warnings: string[] = [];
    let model = '';
    const ask = async (instruction: string, material: string) => {
      const generated = await llm.generate({
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `${instruction}\n\n${material}` },
        ],
        schema,
        schemaName: 'summary',
        signal,
      });
      usage.inputTokens += generated.usage.inputTokens;
      usage.outputTokens += generated.usage.outputTokens;
      model ||= generated.model;
      return (generated.data as { summary: string }).summary.trim();
    };
    const count = await llm.counter(provider);
    const budget = llm.inputBudget(provider, 200);
    const { parts, cut } = pageParts(text, budget, count, llm.settings.maxChunks);
    if (cut)
      warnings.push(
        `The page is longer than ${parts.length} parts of the model's context (llm.maxChunks); the rest was left out of the summary`,
      );
    const final = `Summarize this page in about ${words} words.`;
    if (parts.length === 1) return { summary: await ask(final, parts[0]!), model, provider: provider.id, usage, warnings };

    const partial = await mapBounded(parts, provider.handler.concurrency, (part, i) =>
      ask(
        `This is part ${i + 1} of ${parts.length} of a page. Summarize what this part says in about ${Math.max(words, 80)} words, keeping its facts and names.`,
        part,
      ),
    );
    // The part summaries may be too long together for one call: reduce them in groups until they fit
    // (a few rounds at most: each round shortens them, unless a model keeps answering at length).
    let summaries = partial;
    for (let round = 0; round < MAX_REDUCE_ROUNDS && summaries.length > 1; round++) {
      const groups = splitText(summaries.join('\n\n'), budget, count, llm.settings.maxChunks).parts;
      if (groups.length === 1) break;
      summaries = await mapBounded(groups, provider.handler.concurrency, (group) =>
        ask(`Combine these summaries of consecutive parts of one page into one summary of about ${Math.max(words, 80)} words.`, group),
      );
    }
    const header = text.slice(0, Math.max(0, text.indexOf('\n\n')));
    const {
      parts: [combined],
      cut: shortened,
    } = splitText(summaries.join('\n\n'), budget - count(header), count, 1);
    if (shortened) warnings.push('The summaries of the parts were still too long together for the model; the last ones were left out');
    return {
      summary: await ask(`${final} You are given summaries of its consecutive parts.`, `${header}\n\n${combined}`),
      model,
      provider: provider.id,
      usage,
      warnings,
    };
  }
}
