#!/usr/bin/env bun
/**
 * The llm format on the shared main-content dev set (../shared/datasets/main-content):
 *
 *   bun run bench llm-tokens [--limit N] [--type article] [--source wcxb] [--ids a,b] [--out path.json]
 *
 * Every page goes through the real pipeline (llm-measure.ts). Reported: the llm text's tokens as
 * a share of the raw HTML's (median, p90, by page type), its recall of the reference text (the
 * dataset's evaluate.ts; the plain text of the same content bounds it, and all text in the HTML
 * bounds every extractor), and for each step of LLM_STEPS what leaving it out costs in tokens
 * and recall. Writes bench/results/llm-tokens.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { LLM_STEPS } from '../plugins/format/llm/llm.ts';
import { filterRecord, loadSelection, parseDatasetArgs } from './extraction-data.ts';
import { extractForLlm, llmRender, llmSummary, measureVariant, pct, printLlmSummary, quantile, TOKENIZER } from './llm-measure.ts';

const args = parseDatasetArgs('llm-tokens', {});
const { gt, scorer, pages } = await loadSelection(args);
console.log(`${pages.length} pages`);

const started = performance.now();
const extracted = await extractForLlm(pages);
console.log(`pipeline + raw HTML tokens: ${((performance.now() - started) / 1000).toFixed(1)} s`);

const summary = llmSummary(extracted, gt, scorer);
const { llm: full, plainText, ceiling } = summary;
const markdown = measureVariant(extracted, gt, scorer, (e) => e.input.markdown);
const rawTokens = extracted.reduce((n, e) => n + e.rawTokens, 0);

console.log(
  `\nraw HTML ${rawTokens} tokens; markdown ${markdown.tokens} (median share ${pct(markdown.medianShare)}, recall ${markdown.recall.toFixed(3)}); llm ${full.tokens}`,
);
printLlmSummary(summary);

const byType: Record<string, { pages: number; medianShare: number; p90Share: number }> = {};
for (const type of [...new Set(extracted.map((e) => e.type))].sort()) {
  const shares = full.shares.filter((_, i) => extracted[i]!.type === type);
  byType[type] = { pages: shares.length, medianShare: quantile(shares, 0.5), p90Share: quantile(shares, 0.9) };
  console.log(
    `  ${type.padEnd(34)} ${String(shares.length).padStart(4)} pages  median ${pct(byType[type].medianShare)}  p90 ${pct(byType[type].p90Share)}`,
  );
}

console.log('\nstep ablation (the pipeline without one step; saved = tokens that step removes):');
console.log(`${'step'.padEnd(22)} ${'saved tokens'.padStart(12)} ${'saved %'.padStart(8)} ${'recall without'.padStart(15)}`);
const steps: Record<string, { savedTokens: number; savedShare: number; recallWithout: number }> = {};
for (const step of LLM_STEPS) {
  const without = measureVariant(extracted, gt, scorer, llmRender(LLM_STEPS.filter((s) => s !== step)));
  const saved = without.tokens - full.tokens;
  steps[step.name] = { savedTokens: saved, savedShare: saved / without.tokens, recallWithout: without.recall };
  console.log(
    `${step.name.padEnd(22)} ${String(saved).padStart(12)} ${pct(saved / without.tokens).padStart(8)} ${without.recall.toFixed(4).padStart(15)}`,
  );
}
console.log(
  `${'(all steps)'.padEnd(22)} ${String(markdown.tokens - full.tokens).padStart(12)} ${pct((markdown.tokens - full.tokens) / markdown.tokens).padStart(8)} ${full.recall.toFixed(4).padStart(15)}  vs markdown`,
);

const result = {
  date: new Date().toISOString(),
  bun: Bun.version,
  tokenizer: TOKENIZER,
  pages: extracted.length,
  filter: filterRecord(args),
  rawHtmlTokens: rawTokens,
  markdown: { tokens: markdown.tokens, medianShare: markdown.medianShare, p90Share: markdown.p90Share, recall: markdown.recall },
  llm: { tokens: full.tokens, medianShare: full.medianShare, p90Share: full.p90Share, recall: full.recall, byType },
  plainTextRecall: plainText.recall,
  /** All text in the HTML: the recall no extractor working on the HTML can exceed. */
  ceiling: { recall: ceiling.recall, medianShare: ceiling.medianShare, p90Share: ceiling.p90Share },
  steps,
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`results: ${args.out}`);
