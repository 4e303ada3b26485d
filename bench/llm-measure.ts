/**
 * The llm format measured on dev-set pages, shared by the llm-tokens and extraction benchmarks:
 * every page goes through the real pipeline (dataset-pipeline.ts) from memory, then the llm text is made
 * from the markdown. Token counts use gpt-tokenizer's default encoding (o200k_base).
 */
import { countTokens } from 'gpt-tokenizer';
import { textOf } from '../core/dom.ts';
import { LLM_STEPS, llmFromMarkdown, type LlmInput, type LlmStep } from '../plugins/format/llm/llm.ts';
import { datasetPipeline } from './dataset-pipeline.ts';
import { allTextOf, type Page, type Scorer, type Truth } from './extraction-data.ts';
import { quantile } from './stats.ts';

export { quantile };

export const TOKENIZER = 'gpt-tokenizer 4.0.0, default encoding (o200k_base)';

export interface Extracted {
  id: string;
  type: string;
  rawTokens: number;
  input: LlmInput;
  text: string;
  allText: string;
}

/** Runs every page through the pipeline once; what the llm measurements are made from. */
export async function extractForLlm(pages: Page[]): Promise<Extracted[]> {
  const scrape = await datasetPipeline();
  const extracted: Extracted[] = [];
  for (const page of pages) {
    const doc = await scrape(page);
    extracted.push({
      id: page.id,
      type: `${page.source}/${page.type}`,
      rawTokens: countTokens(page.html),
      text: doc.root ? textOf(doc.root) : '',
      allText: allTextOf(page.html),
      input: { url: doc.baseUrl, title: doc.metadata.title, markdown: String(doc.outputs.markdown ?? '') },
    });
  }
  return extracted;
}

export interface Variant {
  tokens: number;
  medianShare: number;
  p90Share: number;
  recall: number;
  shares: number[];
}

/** Token shares and recall of one rendering of every extracted page. */
export function measureVariant(
  extracted: Extracted[],
  gt: Record<string, Truth>,
  scorer: Scorer,
  render: (e: Extracted) => string,
): Variant {
  const texts: Record<string, string> = {};
  let tokens = 0;
  const shares = extracted.map((e) => {
    const out = render(e);
    texts[e.id] = out;
    const n = countTokens(out);
    tokens += n;
    return e.rawTokens ? n / e.rawTokens : 0;
  });
  const recall = scorer.summarize(
    scorer.scorePages(
      gt,
      texts,
      extracted.map((e) => e.id),
    ),
  ).recall;
  return { tokens, medianShare: quantile(shares, 0.5), p90Share: quantile(shares, 0.9), recall, shares };
}

export const llmRender =
  (steps: readonly LlmStep[] = LLM_STEPS) =>
  (e: Extracted) =>
    llmFromMarkdown(e.input, steps);

export const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

/** The headline numbers: llm share (median, p90) and recall, the plain-text recall of the same content, and the all-text ceiling. */
export function llmSummary(extracted: Extracted[], gt: Record<string, Truth>, scorer: Scorer) {
  const llm = measureVariant(extracted, gt, scorer, llmRender());
  const plainText = measureVariant(extracted, gt, scorer, (e) => e.text);
  const ceiling = measureVariant(extracted, gt, scorer, (e) => e.allText);
  return { llm, plainText, ceiling };
}

export function printLlmSummary({ llm, plainText, ceiling }: ReturnType<typeof llmSummary>): void {
  console.log(`llm share of raw HTML tokens: median ${pct(llm.medianShare)}, p90 ${pct(llm.p90Share)} (target: median ≤ 10%)`);
  console.log(
    `recall of the reference text: llm ${llm.recall.toFixed(3)} (target ≥ 0.95); same content as plain text ${plainText.recall.toFixed(3)}`,
  );
  console.log(
    `ceiling: all text in the HTML (tags as spaces, scripts and styles cut) recalls ${ceiling.recall.toFixed(3)} of the reference text at a median share of ${pct(ceiling.medianShare)}`,
  );
}
