#!/usr/bin/env bun
/**
 * Calibration of the page type and content confidence (metadata.page_type, content_confidence)
 * on the shared main-content dev set.
 *
 *   bun bench/extraction-calibration.ts [--limit N] [--type article] [--source wcxb] [--ids a,b]
 *                                       [--no-whole] [--per-doc out.tsv] [--out path.json]
 *
 * Runs the scrape pipeline (dataset-pipeline.ts) on every selected page with only_main_content,
 * and, unless `--no-whole`, without it (the whole page, where only the cheap classification runs),
 * scores each page's text with the dataset's evaluate.ts and reports for each mode: the page-type
 * accuracy against the dev set's `type` (labelled on WCXB; every page of the other sources is an
 * article), a confusion table, per confidence decile the mean F1 and the mean confidence next to
 * the share of pages that came out right (F1 ≥ 0.8, what the confidence estimates), and Spearman's
 * rho between the confidence and the page's F1. Writes bench/results/extraction-calibration.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { textOf } from '../core/dom.ts';
import { PAGE_TYPES } from '../core/model/result.ts';
import { filterRecord, loadSelection, parseDatasetArgs, type Page, type Scorer, type Truth } from './extraction-data.ts';
import { pageF1 } from './extraction-report.ts';
import { datasetPipeline } from './dataset-pipeline.ts';
import { scoredText } from './headline-adapter.ts';
import { deciles, GOOD_F1, spearman, typeReport, type Observation } from './calibration-stats.ts';

const args = parseDatasetArgs('extraction-calibration', {
  'no-whole': { type: 'boolean', default: false },
  'per-doc': { type: 'string' },
});
const { gt, scorer, pages } = await loadSelection(args);
console.log(`${pages.length} pages`);

/** Every page through the pipeline in one mode: its type, confidence and scored F1. */
async function observe(onlyMainContent: boolean, gt: Record<string, Truth>, scorer: Scorer, pages: Page[]): Promise<Observation[]> {
  const scrape = await datasetPipeline(onlyMainContent);
  const text: Record<string, string> = {};
  const seen = new Map<string, { type: string; confidence: number }>();
  for (const page of pages) {
    let type = 'none';
    let confidence = 0;
    try {
      const doc = await scrape(page);
      type = doc.metadata.pageType ?? 'none';
      confidence = doc.metadata.contentConfidence ?? 0;
      text[page.id] = doc.root && doc.dom ? scoredText(textOf(doc.root), doc.root, doc.dom, gt[page.id]!.articleBody) : '';
    } catch {
      text[page.id] = '';
    }
    seen.set(page.id, { type, confidence });
  }
  return scorer
    .scorePages(
      gt,
      text,
      pages.map((p) => p.id),
    )
    .map((row) => ({
      id: row.id,
      source: row.source,
      truth: row.type,
      ...seen.get(row.id)!,
      f1: pageF1(row).f1,
    }));
}

const f3 = (x: number) => x.toFixed(3);

function report(name: string, obs: Observation[]) {
  const types = typeReport(obs, PAGE_TYPES);
  const bins = deciles(obs);
  const rho = spearman(
    obs.map((o) => o.confidence),
    obs.map((o) => o.f1),
  );
  const lowest = bins[0]!;
  const rest = obs.filter((o) => !lowest.ids.has(o.id));
  const restF1 = rest.reduce((s, o) => s + o.f1, 0) / (rest.length || 1);
  console.log(`\n== ${name}: ${obs.length} pages`);
  console.log(
    `page type accuracy ${f3(types.accuracy)} (${Object.entries(types.bySource)
      .map(([k, v]) => `${k} ${f3(v.accuracy)}`)
      .join(', ')})`,
  );
  console.log(`per true type (recall; precision of the prediction):`);
  for (const [t, v] of Object.entries(types.byType))
    console.log(
      `  ${t.padEnd(14)} ${f3(v.recall)} of ${String(v.pages).padStart(4)}; predicted ${String(v.predicted).padStart(4)}, precision ${f3(v.precision)}`,
    );
  console.log(`confusion (rows: true type, columns: predicted):`);
  const cols = PAGE_TYPES.filter((t) => obs.some((o) => o.type === t));
  console.log(`  ${''.padEnd(14)}${cols.map((c) => c.slice(0, 6).padStart(7)).join('')}`);
  for (const [t, row] of Object.entries(types.confusion))
    console.log(`  ${t.padEnd(14)}${cols.map((c) => String(row[c] ?? 0).padStart(7)).join('')}`);
  console.log(`per confidence decile (lowest first): mean F1, and the confidence against the share of pages right (F1 ≥ ${GOOD_F1}):`);
  for (const b of bins)
    console.log(
      `  ${f3(b.min)}–${f3(b.max)}  n ${String(b.n).padStart(4)}  F1 ${f3(b.f1)}   confidence ${f3(b.confidence)}  right ${f3(b.good)}`,
    );
  console.log(`lowest decile F1 ${f3(lowest.f1)} vs the rest ${f3(restF1)}; Spearman rho(confidence, F1) ${f3(rho)}`);
  return { pageType: types, deciles: bins.map(({ ids: _ids, ...b }) => b), lowestDecileF1: lowest.f1, restF1, spearman: rho };
}

const modes: Record<string, Observation[]> = { mainContent: await observe(true, gt, scorer, pages) };
if (!args['no-whole']) modes.wholePage = await observe(false, gt, scorer, pages);
const results = Object.fromEntries(
  Object.entries(modes).map(([name, obs]) => [
    name,
    report(name === 'mainContent' ? 'only_main_content' : 'whole page (only_main_content off)', obs),
  ]),
);

const perDoc = args['per-doc'] as string | undefined;
if (perDoc) {
  const lines = modes
    .mainContent!.sort((a, b) => a.confidence - b.confidence)
    .map((o) => [o.id, o.truth, o.type, f3(o.confidence), f3(o.f1)].join('\t'));
  writeFileSync(perDoc, `${['id\ttrue_type\tpage_type\tconfidence\tf1', ...lines].join('\n')}\n`);
  console.log(`per-page type, confidence and F1 (least confident first): ${perDoc}`);
}

mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(
  args.out,
  `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, pages: pages.length, filter: filterRecord(args), ...results }, null, 2)}\n`,
);
console.log(`results: ${args.out}`);
