#!/usr/bin/env bun
/**
 * What parsing costs: Trawl's parse (core/dom.ts: the standard's tree construction building
 * linkedom's DOM) next to linkedom's own parser (htmlparser2, not the standard's algorithm: what
 * Trawl used before) and parse5 building its own tree, on the dev-set pages.
 *
 *   bun run bench html-parse [--limit N] [--source dragnet] [--rounds 3]
 *
 * Each page is parsed by all three in turn (the order rotates per page, so background load hits
 * each alike), `rounds` times. Per page the fastest round counts; reported as ms per MB of HTML
 * (median and p90 over pages) and as total time. Writes bench/results/html-parse.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseHTML } from 'linkedom';
import { parse } from 'parse5';
import { parseHtmlDocument } from '../core/dom.ts';
import { filterRecord, loadSelection, parseDatasetArgs } from './extraction-data.ts';
import { quantile } from './stats.ts';

const args = parseDatasetArgs('html-parse', { rounds: { type: 'string', default: '3' } });
const { pages } = await loadSelection(args);
const rounds = Math.max(1, Number(args.rounds));
const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p.html), 0);
console.log(`${pages.length} pages, ${(bytes / 1e6).toFixed(1)} MB of HTML, best of ${rounds} rounds per page`);

const parsers: Record<string, (html: string) => unknown> = {
  'trawl (parse5 → linkedom)': (html) => parseHtmlDocument(html),
  'linkedom (htmlparser2)': (html) => parseHTML(html).document,
  'parse5 (own tree)': (html) => parse(html),
};
const names = Object.keys(parsers);
const best: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, pages.map(() => Infinity)]));

// warm-up: the first pages otherwise pay for compiling each parser
for (const page of pages.slice(0, 20)) for (const name of names) parsers[name]!(page.html);
for (let round = 0; round < rounds; round++) {
  pages.forEach((page, i) => {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + round + k) % names.length]!;
      const t0 = performance.now();
      parsers[name]!(page.html);
      best[name]![i] = Math.min(best[name]![i]!, performance.now() - t0);
    }
  });
}

const summary = names.map((name) => {
  const perMb = pages.map((p, i) => best[name]![i]! / (Buffer.byteLength(p.html) / 1e6));
  const totalMs = best[name]!.reduce((a, b) => a + b, 0);
  return {
    parser: name,
    medianMsPerMb: quantile(perMb, 0.5),
    p90MsPerMb: quantile(perMb, 0.9),
    totalMs,
    mbPerSecond: bytes / 1e6 / (totalMs / 1000),
  };
});
const base = summary[1]!;
console.log(`${'parser'.padEnd(28)} ms/MB median   p90    total s   MB/s   vs linkedom (median, total)`);
for (const s of summary) {
  console.log(
    `${s.parser.padEnd(28)} ${s.medianMsPerMb.toFixed(1).padStart(10)} ${s.p90MsPerMb.toFixed(1).padStart(6)} ${(s.totalMs / 1000).toFixed(2).padStart(9)} ${s.mbPerSecond.toFixed(1).padStart(6)}   ${(s.medianMsPerMb / base.medianMsPerMb).toFixed(2)}x, ${(s.totalMs / base.totalMs).toFixed(2)}x`,
  );
}
const out = {
  date: new Date().toISOString(),
  bun: Bun.version,
  pages: pages.length,
  bytes,
  rounds,
  filter: filterRecord(args),
  parsers: summary,
};
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, `${JSON.stringify(out, null, 2)}\n`);
console.log(`results: ${args.out}`);
