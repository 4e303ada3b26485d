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
 * .textContent`, timed. Each system runs in a process of its own (extraction-row.ts), all taking
 * the same chunks of pages in turn. All are scored with the dataset's evaluate.ts; `--no-jsdom`
 * leaves the slow jsdom row out. Then, untimed, the llm format through the real pipeline
 * (llm-measure.ts): its token share of the raw HTML (median, p90) and recall, next to the recall
 * of all text in the HTML (the ceiling); `--no-llm` skips it for quick tuning runs (`bun run
 * bench llm-tokens` adds the per-step ablation). Prints a table and writes bench/results/extraction.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { filterRecord, loadSelection, parseDatasetArgs } from './extraction-data.ts';
import { groupSummaries, perDocTsv, printTable } from './extraction-report.ts';
import type { RowName, RowPage, RowReply } from './extraction-row.ts';
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

/** A row's process (extraction-row.ts): started once, then handed one chunk of pages at a time. */
async function startRow(row: RowName) {
  const replies: Array<(reply: RowReply) => void> = [];
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const child = Bun.spawn(['bun', `${import.meta.dir}/extraction-row.ts`, row], {
    stdio: ['inherit', 'inherit', 'inherit'],
    ipc: (message: RowReply | 'ready') => (message === 'ready' ? ready() : replies.shift()?.(message)),
  });
  // (a row that dies fails the run rather than leaving it waiting)
  const died = child.exited.then((code) => Promise.reject(new Error(`row ${row} exited with ${code}`)));
  died.catch(() => {});
  await Promise.race([started, died]);
  return {
    run: (chunk: RowPage[]) =>
      Promise.race([
        died,
        new Promise<RowReply>((resolve) => {
          replies.push(resolve);
          child.send(chunk);
        }),
      ]),
    stop: () => child.kill(),
  };
}

const rows: RowName[] = [
  'trawl',
  ...(args['no-baseline'] ? [] : args['no-jsdom'] ? ['readability' as const] : ['readability' as const, 'readability-jsdom' as const]),
];
const VERSIONS: Record<string, string> = { readability: '0.6.0 on linkedom 0.18.14', 'readability-jsdom': '0.6.0 on jsdom 31.0.1' };
const runs = new Map(
  rows.map((row) => [
    row,
    { text: {} as Record<string, string>, ms: 0, extractMs: 0, markdownChars: 0, errors: {} as Record<string, string> },
  ]),
);
const processes = await Promise.all(rows.map(startRow));
// Rows take the same chunk in turn, so background load on the machine hits every system alike
// (chunks of a second or two: load swings are slower); each row in its own process, so none
// collects another's garbage.
const CHUNK = 40;
for (let at = 0; at < pages.length; at += CHUNK) {
  const chunk = pages.slice(at, at + CHUNK).map((p) => ({ ...p, truth: gt[p.id]!.articleBody }));
  for (let i = 0; i < rows.length; i++) {
    const reply = await processes[i]!.run(chunk);
    const run = runs.get(rows[i]!)!;
    Object.assign(run.text, reply.text);
    Object.assign(run.errors, reply.errors);
    run.ms += reply.ms;
    run.extractMs += reply.extractMs;
    run.markdownChars += reply.markdownChars;
  }
}
for (const p of processes) p.stop();
const trawl = runs.get('trawl')!;
const baselines = rows.slice(1).map((name) => ({ name, version: VERSIONS[name]!, run: runs.get(name)! }));
const trawlRows = scorer.scorePages(gt, trawl.text, ids);
const systems = [{ name: 'trawl', groups: groupSummaries(scorer, trawlRows) }];
const baselineRows = baselines.map((b) => scorer.scorePages(gt, b.run.text, ids));
for (const [i, b] of baselines.entries()) systems.push({ name: b.name, groups: groupSummaries(scorer, baselineRows[i]!) });

printTable(systems);
const pps = (n: number, ms: number) => (ms > 0 ? (n * 1000) / ms : 0);
const trawlPps = pps(pages.length, trawl.ms);
console.log(
  `\nthroughput: trawl scrape (html→main→markdown) ${trawlPps.toFixed(1)} pages/s (${(trawl.ms / 1000).toFixed(1)} s; parse+metadata+transforms ${(trawl.extractMs / 1000).toFixed(1)} s)`,
);
for (const b of baselines) {
  const rPps = pps(pages.length, b.run.ms);
  console.log(
    `            ${`${b.name} parse`.padEnd(29)} ${rPps.toFixed(1)} pages/s (${(b.run.ms / 1000).toFixed(1)} s)  ratio ${(trawlPps / rPps).toFixed(2)}x`,
  );
}
const errorIds = Object.keys(trawl.errors);
if (errorIds.length)
  console.log(
    `trawl errors on ${errorIds.length} page(s): ${errorIds
      .slice(0, 5)
      .map((id) => `${id}: ${trawl.errors[id]}`)
      .join('; ')}`,
  );

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
  const shares = ({ medianShare, p90Share, recall }: { medianShare: number; p90Share: number; recall: number }) => ({
    medianShare,
    p90Share,
    recall,
  });
  llm = {
    tokenizer: TOKENIZER,
    tokens: summary.llm.tokens,
    ...shares(summary.llm),
    plainTextRecall: summary.plainText.recall,
    ceiling: shares(summary.ceiling),
  };
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
  baselines: Object.fromEntries(
    baselines.map((b, i) => [
      b.name,
      {
        version: b.version,
        scores: systems[i + 1]!.groups,
        ms: Math.round(b.run.ms),
        pagesPerSecond: pps(pages.length, b.run.ms),
        throughputRatio: trawlPps / pps(pages.length, b.run.ms),
      },
    ]),
  ),
  /** Per-format measurements; `llm` is null when run with --no-llm. */
  formats: { markdown: { chars: trawl.markdownChars }, llm },
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`results: ${args.out}`);
