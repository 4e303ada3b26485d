#!/usr/bin/env bun
/**
 * Main-content extraction benchmark on the shared dev set (../shared/datasets/main-content).
 *
 *   bun bench/extraction.ts [--limit N] [--type article] [--source wcxb] [--ids a,b]
 *                           [--per-doc out.tsv] [--no-baseline] [--no-jsdom] [--no-llm] [--out path.json]
 *
 * In one run, for every selected page: Trawl (the scrape pipeline a user's request runs,
 * dataset-pipeline.ts: html document → transforms → markdown with `only_main_content`, timed;
 * plain text of the content root via core/dom.ts textOf for scoring, less a leading title heading
 * the page's truth leaves out: headline-adapter.ts) and the baselines,
 * Readability 0.6.0 on linkedom 0.18.14's own parser (the fast DOM it is commonly run on) and on
 * jsdom 31 (its usual, standard-conformant DOM), each parse → `new Readability(doc).parse()
 * .textContent`, timed. All are scored with the dataset's evaluate.ts; `--no-jsdom` leaves the
 * slow jsdom row out. Then, untimed, the llm format through the real pipeline
 * (llm-measure.ts): its token share of the raw HTML (median, p90) and recall, next to the recall
 * of all text in the HTML (the ceiling); `--no-llm` skips it for quick tuning runs (`bun run
 * bench llm-tokens` adds the per-step ablation). Prints a table and writes bench/results/extraction.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHTML } from 'linkedom';
import { textOf } from '../core/dom.ts';
import { filterRecord, loadSelection, parseDatasetArgs, type Page } from './extraction-data.ts';
import { groupSummaries, perDocTsv, printTable } from './extraction-report.ts';
import { datasetPipeline } from './dataset-pipeline.ts';
import { scoredText } from './headline-adapter.ts';
import { extractForLlm, llmSummary, printLlmSummary, TOKENIZER } from './llm-measure.ts';

const args = parseDatasetArgs('extraction', {
  'per-doc': { type: 'string' },
  'no-baseline': { type: 'boolean', default: false },
  'no-jsdom': { type: 'boolean', default: false },
  'no-llm': { type: 'boolean', default: false },
});
const { gt, scorer, pages } = await loadSelection(args);
const ids = pages.map((p) => p.id);
console.log(`${pages.length} pages, ${(pages.reduce((n, p) => n + p.html.length, 0) / 1e6).toFixed(1)} MB of HTML`);

interface RunResult {
  text: Record<string, string>;
  /** Timed path total, milliseconds. */
  ms: number;
}

/** Trawl on one page: the timed scrape (parse, metadata, transforms, markdown); plain text for scoring taken outside the timer. */
async function trawlPage(page: Page, out: RunResult & { extractMs: number; markdownChars: number; errors: Record<string, string> }) {
  const t0 = performance.now();
  let root: Element | null = null;
  let dom: Document | null = null;
  try {
    const doc = await scrape(page);
    out.extractMs += (doc.timings.detect ?? 0) + (doc.timings.transform ?? 0);
    out.markdownChars += String(doc.outputs.markdown ?? '').length;
    root = doc.root;
    dom = doc.dom;
  } catch (e) {
    out.errors[page.id] = e instanceof Error ? e.message : String(e);
  }
  out.ms += performance.now() - t0;
  out.text[page.id] = root && dom ? scoredText(textOf(root), root, dom, gt[page.id]!.articleBody) : '';
}

/** A baseline DOM: the parsed page, and what to release after Readability has read it. */
type BaselineDom = (html: string) => { document: Document; close?: () => void };
const onLinkedom: BaselineDom = (html) => ({ document: parseHTML(html).document as unknown as Document });
const onJsdom: BaselineDom = (html) => {
  // (its console reports every stylesheet it cannot parse; nobody reads them here)
  const { window } = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  return { document: window.document, close: () => window.close() };
};

/** A baseline on one page: parse + Readability 0.6.0, timed. */
function readabilityPage(page: Page, out: RunResult, dom: BaselineDom) {
  const t0 = performance.now();
  let text = '';
  let close: (() => void) | undefined;
  try {
    const parsed = dom(page.html);
    close = parsed.close;
    text = new Readability(parsed.document as any).parse()?.textContent ?? '';
  } catch {
    text = '';
  }
  out.ms += performance.now() - t0;
  close?.();
  out.text[page.id] = text;
}

// Interleaved page by page, so background load on the machine hits every system alike.
const scrape = await datasetPipeline();
const trawl = { text: {} as Record<string, string>, ms: 0, extractMs: 0, markdownChars: 0, errors: {} as Record<string, string> };
const baselines: Array<{ name: string; version: string; dom: BaselineDom; run: RunResult }> = [];
if (!args['no-baseline']) {
  baselines.push({ name: 'readability', version: '0.6.0 on linkedom 0.18.14', dom: onLinkedom, run: { text: {}, ms: 0 } });
  if (!args['no-jsdom']) baselines.push({ name: 'readability-jsdom', version: '0.6.0 on jsdom 31.0.1', dom: onJsdom, run: { text: {}, ms: 0 } });
}
for (const page of pages) {
  await trawlPage(page, trawl);
  for (const b of baselines) readabilityPage(page, b.run, b.dom);
}
const trawlRows = scorer.scorePages(gt, trawl.text, ids);
const systems = [{ name: 'trawl', groups: groupSummaries(scorer, trawlRows) }];
const baselineRows = baselines.map((b) => scorer.scorePages(gt, b.run.text, ids));
baselines.forEach((b, i) => systems.push({ name: b.name, groups: groupSummaries(scorer, baselineRows[i]!) }));

printTable(systems);
const pps = (n: number, ms: number) => (ms > 0 ? (n * 1000) / ms : 0);
const trawlPps = pps(pages.length, trawl.ms);
console.log(`\nthroughput: trawl scrape (html→main→markdown) ${trawlPps.toFixed(1)} pages/s (${(trawl.ms / 1000).toFixed(1)} s; parse+metadata+transforms ${(trawl.extractMs / 1000).toFixed(1)} s)`);
for (const b of baselines) {
  const rPps = pps(pages.length, b.run.ms);
  console.log(`            ${`${b.name} parse`.padEnd(29)} ${rPps.toFixed(1)} pages/s (${(b.run.ms / 1000).toFixed(1)} s)  ratio ${(trawlPps / rPps).toFixed(2)}x`);
}
const errorIds = Object.keys(trawl.errors);
if (errorIds.length) console.log(`trawl errors on ${errorIds.length} page(s): ${errorIds.slice(0, 5).map((id) => `${id}: ${trawl.errors[id]}`).join('; ')}`);

const perDoc = args['per-doc'] as string | undefined;
if (perDoc) {
  writeFileSync(perDoc, perDocTsv(gt, trawlRows, baselineRows[0]));
  console.log(`per-page scores (worst first): ${perDoc}`);
}

let llm: null | Record<string, unknown> = null;
if (!args['no-llm']) {
  console.log('\nllm format (real pipeline, untimed):');
  const summary = llmSummary(await extractForLlm(pages), gt, scorer);
  printLlmSummary(summary);
  const shares = ({ medianShare, p90Share, recall }: { medianShare: number; p90Share: number; recall: number }) => ({ medianShare, p90Share, recall });
  llm = { tokenizer: TOKENIZER, tokens: summary.llm.tokens, ...shares(summary.llm), plainTextRecall: summary.plainText.recall, ceiling: shares(summary.ceiling) };
}

const result = {
  date: new Date().toISOString(),
  bun: Bun.version,
  pages: pages.length,
  filter: filterRecord(args),
  trawl: {
    scores: systems[0]!.groups,
    ms: Math.round(trawl.ms),
    parseExtractMs: Math.round(trawl.extractMs),
    pagesPerSecond: trawlPps,
    errors: trawl.errors,
  },
  baselines: Object.fromEntries(baselines.map((b, i) => [b.name, { version: b.version, scores: systems[i + 1]!.groups, ms: Math.round(b.run.ms), pagesPerSecond: pps(pages.length, b.run.ms), throughputRatio: trawlPps / pps(pages.length, b.run.ms) }])),
  /** Per-format measurements; `llm` is null when run with --no-llm. */
  formats: { markdown: { chars: trawl.markdownChars }, llm },
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, JSON.stringify(result, null, 2) + '\n');
console.log(`results: ${args.out}`);
