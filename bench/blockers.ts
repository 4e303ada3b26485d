#!/usr/bin/env bun
/**
 * Blocked-page recognisers on real content: every dev-set page goes through every blocker plugin
 * (default options, registration order) as a 200 text/html response with its first 256 KB as the
 * body, the way the pipeline asks them after a fetch. Any verdict is a false positive: these
 * pages are all content. The cost is set against the baseline the pipeline pays anyway on the
 * same page — the html document plugin's parse (plugins/document/html/parse.ts) of the whole page
 * — because recognisers run on the server thread for every fetch and must stay a small share of it.
 *
 *   bun run bench blockers [--limit N] [--source dragnet] [--rounds 3] [--status 403]
 *
 * `--status` serves every page with another status: with 403 the vendors' gates open on every
 * page, a stress test of their body markers (a CAPTCHA widget on a 403 is a wall by design).
 *
 * Per page the fastest of `rounds` rounds counts, for the recognisers and the parse alike (a fresh
 * input each round: nothing a recogniser remembers about a page carries over). Writes
 * bench/results/blockers.json.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import type { BlockerInput, BlockVerdict } from '../core/kinds/blocker.ts';
import { blockerInput } from '../core/blocked.ts';
import { PluginRegistry } from '../core/registry.ts';
import { builtinPlugins } from '../plugins/index.ts';
import { DEFAULT_PARSE_LIMITS } from '../plugins/document/html/html.ts';
import { parsePage } from '../plugins/document/html/parse.ts';
import { testConfig } from '../test/helpers/plugin-context.ts';
import { filterRecord, loadSelection, parseDatasetArgs } from './extraction-data.ts';
import { median, quantile } from './stats.ts';
import { datasetPipeline } from './dataset-pipeline.ts';

const args = parseDatasetArgs('blockers', { rounds: { type: 'string', default: '3' }, status: { type: 'string', default: '200' } });
const status = Number(args.status);
const { pages } = await loadSelection(args);
const rounds = Math.max(1, Number(args.rounds));

// The recognisers as the server has them: the default config's, set up by the registry, in its order.
const config = testConfig();
const registry = new PluginRegistry(builtinPlugins, config);
await registry.setup(
  () => ({
    logger: pino({ level: 'silent' }),
    config,
    resolve: () => {
      throw new Error('no services in the bench');
    },
  }),
  ['blocker'],
);
const recognisers = registry.active('blocker').map((p) => ({ name: p.definition.name, handler: p.handler }));

/** The pages as fetched bytes, encoded once so the timing below is core's own work only. */
const fetched = new Map(pages.map((p) => [p.html, new TextEncoder().encode(p.html)]));
/** The input exactly as the pipeline builds it (core/blocked.ts); its cost is timed apart from the recognisers'. */
function inputOf(html: string): BlockerInput {
  return blockerInput({
    status,
    headers: { 'content-type': 'text/html' },
    body: fetched.get(html)!,
    finalUrl: 'https://dev-set.test/',
    mediaType: 'text/html',
  });
}

const n = pages.length;
const bytes = pages.reduce((sum, p) => sum + Buffer.byteLength(p.html), 0);
console.log(
  `${n} pages, ${(bytes / 1e6).toFixed(1)} MB of HTML served with status ${status}, ${recognisers.length} recognisers, best of ${rounds} rounds per page`,
);

const best = {
  input: new Array<number>(n).fill(Infinity),
  recognise: new Array<number>(n).fill(Infinity),
  parse: new Array<number>(n).fill(Infinity),
};
const perRecogniser = recognisers.map(() => new Array<number>(n).fill(Infinity));
const flagged = new Map<string, Array<BlockVerdict & { recogniser: string }>>();

// Warm-up: the first pages otherwise pay for compiling the parser and the recognisers' expressions.
for (const page of pages.slice(0, 20)) {
  parsePage(page.html, DEFAULT_PARSE_LIMITS);
  for (const { handler } of recognisers) handler.recognise(inputOf(page.html));
}

for (let round = 0; round < rounds; round++) {
  pages.forEach((page, i) => {
    let t0 = performance.now();
    const input = inputOf(page.html);
    best.input[i] = Math.min(best.input[i]!, performance.now() - t0);
    let total = 0;
    recognisers.forEach(({ name, handler }, r) => {
      t0 = performance.now();
      const verdict = handler.recognise(input);
      const spent = performance.now() - t0;
      total += spent;
      perRecogniser[r]![i] = Math.min(perRecogniser[r]![i]!, spent);
      if (verdict && round === 0) flagged.set(page.id, [...(flagged.get(page.id) ?? []), { recogniser: name, ...verdict }]);
    });
    best.recognise[i] = Math.min(best.recognise[i]!, total);
    t0 = performance.now();
    parsePage(page.html, DEFAULT_PARSE_LIMITS);
    best.parse[i] = Math.min(best.parse[i]!, performance.now() - t0);
  });
}

// What the target is stated against: the whole scrape pipeline a request runs (one pass).
const scrape = await datasetPipeline();
const pipelineMs: number[] = [];
for (const page of pages) {
  const t0 = performance.now();
  await scrape(page);
  pipelineMs.push(performance.now() - t0);
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const describe = (values: number[]) => ({ totalMs: sum(values), medianUs: median(values) * 1000, p99Us: quantile(values, 0.99) * 1000 });
const parse = describe(best.parse);
const recognise = describe(best.recognise);
const input = describe(best.input);
const shares = best.recognise.map((ms, i) => ms / best.parse[i]!);
const summary = {
  recognisers: {
    ...recognise,
    percentOfParse: (100 * recognise.totalMs) / parse.totalMs,
    medianPagePercent: 100 * median(shares),
    p99PagePercent: 100 * quantile(shares, 0.99),
  },
  input: { ...input, percentOfParse: (100 * input.totalMs) / parse.totalMs },
  parse,
  pipeline: { totalMs: sum(pipelineMs), blockCheckPercent: (100 * (recognise.totalMs + input.totalMs)) / sum(pipelineMs) },
  perRecogniser: Object.fromEntries(recognisers.map(({ name }, r) => [name, describe(perRecogniser[r]!)])),
};

const row = (label: string, d: { totalMs: number; medianUs: number; p99Us: number }, share = '') =>
  console.log(
    `${label.padEnd(26)} ${d.totalMs.toFixed(1).padStart(9)} ${d.medianUs.toFixed(1).padStart(10)} ${d.p99Us.toFixed(1).padStart(10)}   ${share}`,
  );
console.log(`\n${'stage'.padEnd(26)} ${'total ms'.padStart(9)} ${'median µs'.padStart(10)} ${'p99 µs'.padStart(10)}   share of parse`);
row('html parse (baseline)', parse, '100 %');
row(
  'all recognisers',
  recognise,
  `${summary.recognisers.percentOfParse.toFixed(2)} % of total; per page median ${summary.recognisers.medianPagePercent.toFixed(2)} %, p99 ${summary.recognisers.p99PagePercent.toFixed(2)} %`,
);
for (const { name } of recognisers) row(`  ${name}`, summary.perRecogniser[name]!);
row('input (slice + title)', input, `${summary.input.percentOfParse.toFixed(2)} %`);
console.log(
  `\nwhole pipeline (one pass): ${summary.pipeline.totalMs.toFixed(0)} ms; the block check (input + recognisers) is ${summary.pipeline.blockCheckPercent.toFixed(2)} % of it`,
);

console.log(`\npages flagged: ${flagged.size} of ${n}${flagged.size ? ' (false positives: every dev-set page is content)' : ''}`);
for (const [id, verdicts] of flagged)
  for (const v of verdicts) console.log(`  ${id}: ${v.recogniser} → ${v.vendor}/${v.kind} (${v.evidence})`);

const out = {
  date: new Date().toISOString(),
  bun: Bun.version,
  pages: n,
  bytes,
  rounds,
  status,
  filter: filterRecord(args),
  order: recognisers.map((r) => r.name),
  flagged: Object.fromEntries(flagged),
  ...summary,
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, `${JSON.stringify(out, null, 2)}\n`);
console.log(`results: ${args.out}`);
