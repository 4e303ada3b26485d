#!/usr/bin/env bun
/**
 * The llm format on the shared main-content dev set (../shared/datasets/main-content):
 *
 *   bun run bench llm-tokens [--limit N] [--type article] [--source wcxb] [--ids a,b] [--out path.json]
 *
 * Every page goes through the real pipeline (html document → clean → selectors → main content →
 * URL resolution → markdown, `only_main_content: true`), served from memory by a bench-only
 * fetcher. Reported, with gpt-tokenizer's default encoding (o200k_base): the llm text's tokens as
 * a share of the raw HTML's (median, p90, by page type), its recall of the reference text (the
 * dataset's evaluate.ts; the plain text of the same content bounds it, and all text in the HTML
 * bounds every extractor), and for each step of LLM_STEPS what leaving it out costs in tokens
 * and recall. Writes bench/results/llm-tokens.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import { countTokens } from 'gpt-tokenizer';
import { loadConfig } from '../core/config.ts';
import { textOf } from '../core/dom.ts';
import { createJob, scrapeRequestSchema } from '../core/job.ts';
import { Pipeline } from '../core/pipeline.ts';
import { definePlugin, type AnyPlugin } from '../core/plugin.ts';
import { PluginRegistry } from '../core/registry.ts';
import { htmlDocument } from '../plugins/document/html/html.ts';
import { cleanTransform } from '../plugins/transform/clean/clean.ts';
import { selectorsTransform } from '../plugins/transform/selectors/selectors.ts';
import { mainContentTransform } from '../plugins/transform/main-content/main-content.ts';
import { resolveUrlsTransform } from '../plugins/transform/resolve-urls/resolve-urls.ts';
import { markdownFormat } from '../plugins/format/markdown/markdown.ts';
import { LLM_STEPS, llmFromMarkdown, type LlmInput, type LlmStep } from '../plugins/format/llm/llm.ts';
import { allTextOf, filterRecord, loadSelection, parseDatasetArgs, type Page } from './extraction-data.ts';

const args = parseDatasetArgs('llm-tokens', {});
const { gt, scorer, pages } = await loadSelection(args);
const ids = pages.map((p) => p.id);
console.log(`${pages.length} pages`);

/** The page whose HTML the pipeline fetches next; the bench fetcher serves it from memory. */
let current: Page | null = null;
const datasetFetcher = definePlugin({
  kind: 'fetcher',
  name: 'dataset',
  description: 'Serves the current dev-set page from memory.',
  setup: () => ({
    matches: () => true,
    async fetch(doc) {
      const html = current!.html;
      doc.response = { status: 200, headers: {}, body: new Uint8Array(0), finalUrl: doc.job.url, mediaType: 'text/html', text: html, charset: 'utf-8' };
    },
  }),
});
const plugins = [datasetFetcher, htmlDocument, cleanTransform, selectorsTransform, mainContentTransform, resolveUrlsTransform, markdownFormat] as unknown as AnyPlugin[];
const config = loadConfig({ plugins, env: {}, defaultFile: null, overrides: { log: { level: 'silent' } } });
const registry = new PluginRegistry(plugins, config);
const logger = pino({ level: 'silent' });
await registry.setup(() => ({ logger, config, resolve: () => { throw new Error('no services in the bench'); } }));
const pipeline = new Pipeline(registry, logger);

interface Extracted { id: string; type: string; rawTokens: number; input: LlmInput; text: string; allText: string }
const extracted: Extracted[] = [];
const started = performance.now();
for (const page of pages) {
  current = page;
  // 24 Mozilla test pages have no known URL; a reserved host stands in.
  const url = page.url || `https://dataset.invalid/${page.id}`;
  const job = createJob(scrapeRequestSchema.parse({ url, formats: ['markdown'], only_main_content: true }), 'bench', new AbortController().signal);
  const { doc } = await pipeline.run(job);
  extracted.push({
    id: page.id, type: `${page.source}/${page.type}`, rawTokens: countTokens(page.html), text: doc.root ? textOf(doc.root) : '', allText: allTextOf(page.html),
    input: { url: doc.baseUrl, title: doc.metadata.title, markdown: String(doc.outputs.markdown ?? '') },
  });
}
console.log(`pipeline + raw HTML tokens: ${((performance.now() - started) / 1000).toFixed(1)} s`);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
};
const recallOf = (texts: Record<string, string>) => scorer.summarize(scorer.scorePages(gt, texts, ids)).recall;

interface Variant { tokens: number; medianShare: number; p90Share: number; recall: number; shares: number[] }
function measure(render: (e: Extracted) => string): Variant {
  const texts: Record<string, string> = {};
  let tokens = 0;
  const shares = extracted.map((e) => {
    const out = render(e);
    texts[e.id] = out;
    const n = countTokens(out);
    tokens += n;
    return e.rawTokens ? n / e.rawTokens : 0;
  });
  return { tokens, medianShare: quantile(shares, 0.5), p90Share: quantile(shares, 0.9), recall: recallOf(texts), shares };
}

const llm = (steps: readonly LlmStep[]) => (e: Extracted) => llmFromMarkdown(e.input, steps);
const full = measure(llm(LLM_STEPS));
const markdown = measure((e) => e.input.markdown);
const textRecall = recallOf(Object.fromEntries(extracted.map((e) => [e.id, e.text])));
const ceiling = measure((e) => e.allText);
const rawTokens = extracted.reduce((n, e) => n + e.rawTokens, 0);

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
console.log(`\nraw HTML ${rawTokens} tokens; markdown ${markdown.tokens} (median share ${pct(markdown.medianShare)}); llm ${full.tokens}`);
console.log(`llm share of raw HTML tokens: median ${pct(full.medianShare)}, p90 ${pct(full.p90Share)} (target: median ≤ 10%)`);
console.log(`recall of the reference text: llm ${full.recall.toFixed(3)} (target ≥ 0.95); same content as plain text ${textRecall.toFixed(3)}, as markdown ${markdown.recall.toFixed(3)}`);

console.log(`ceiling: all text in the HTML (tags as spaces, scripts and styles cut) recalls ${ceiling.recall.toFixed(3)} of the reference text at a median share of ${pct(ceiling.medianShare)}`);

const byType: Record<string, { pages: number; medianShare: number; p90Share: number }> = {};
for (const type of [...new Set(extracted.map((e) => e.type))].sort()) {
  const shares = full.shares.filter((_, i) => extracted[i]!.type === type);
  byType[type] = { pages: shares.length, medianShare: quantile(shares, 0.5), p90Share: quantile(shares, 0.9) };
  console.log(`  ${type.padEnd(34)} ${String(shares.length).padStart(4)} pages  median ${pct(byType[type].medianShare)}  p90 ${pct(byType[type].p90Share)}`);
}

console.log('\nstep ablation (the pipeline without one step; saved = tokens that step removes):');
console.log(`${'step'.padEnd(22)} ${'saved tokens'.padStart(12)} ${'saved %'.padStart(8)} ${'recall without'.padStart(15)}`);
const steps: Record<string, { savedTokens: number; savedShare: number; recallWithout: number }> = {};
for (const step of LLM_STEPS) {
  const without = measure(llm(LLM_STEPS.filter((s) => s !== step)));
  const saved = without.tokens - full.tokens;
  steps[step.name] = { savedTokens: saved, savedShare: saved / without.tokens, recallWithout: without.recall };
  console.log(`${step.name.padEnd(22)} ${String(saved).padStart(12)} ${pct(saved / without.tokens).padStart(8)} ${without.recall.toFixed(4).padStart(15)}`);
}
console.log(`${'(all steps)'.padEnd(22)} ${String(markdown.tokens - full.tokens).padStart(12)} ${pct((markdown.tokens - full.tokens) / markdown.tokens).padStart(8)} ${full.recall.toFixed(4).padStart(15)}  vs markdown`);

const result = {
  date: new Date().toISOString(),
  bun: Bun.version,
  tokenizer: 'gpt-tokenizer 4.0.0, default encoding (o200k_base)',
  pages: extracted.length,
  filter: filterRecord(args),
  rawHtmlTokens: rawTokens,
  markdown: { tokens: markdown.tokens, medianShare: markdown.medianShare, p90Share: markdown.p90Share, recall: markdown.recall },
  llm: { tokens: full.tokens, medianShare: full.medianShare, p90Share: full.p90Share, recall: full.recall, byType },
  plainTextRecall: textRecall,
  /** All text in the HTML: the recall no extractor working on the HTML can exceed. */
  ceiling: { recall: ceiling.recall, medianShare: ceiling.medianShare, p90Share: ceiling.p90Share },
  steps,
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, JSON.stringify(result, null, 2) + '\n');
console.log(`results: ${args.out}`);
