#!/usr/bin/env bun
/**
 * Endpoint discovery: `bun run bench endpoints [--runs N] [--out path.json]`.
 *
 * Each app of the labelled corpus (bench/endpoints-corpus: built bundles of open-source web apps
 * from npm, endpoints listed by hand) is served by a fixture site as a page linking its bundles;
 * POST /v1/endpoints reads it (include_third_party on, so everything it returns counts). The
 * baseline in the same run is a plain URL regex over the same files (bundles and maps): quoted
 * strings that are absolute URLs or paths. Both answers are compared with the labels after the
 * same normalisation (query dropped, run-time parts `{}`, a leading run-time base dropped, no
 * leading or trailing slash): precision, recall, and time per MB of JavaScript (the median of
 * N calls for /v1/endpoints, over HTTP with the page's scrape; the scanners alone on this thread;
 * and the regex over the files).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { endpointValue } from '../core/features/endpoints/classify.ts';
import { startFixtureSite } from '../test/helpers/fixture-site.ts';
import { startTrawlServer } from '../test/helpers/trawl-server.ts';
import { median } from './stats.ts';
import { scanJavaScript } from '../plugins/scanner/javascript/javascript.ts';
import { unpackSourceMap } from '../plugins/scanner/source-map/source-map.ts';
import { scanStrings } from '../plugins/scanner/strings/strings.ts';
import type { ScanSource } from '../core/plugin.ts';

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: 'string', default: '5' }, out: { type: 'string', default: join(import.meta.dir, 'results/endpoints.json') } },
});
const RUNS = Math.max(1, Number(args.runs));
const CORPUS = join(import.meta.dir, 'endpoints-corpus');

interface App {
  name: string;
  scripts: string[];
  maps?: string[];
  endpoints: string[];
}

const apps = (JSON.parse(readFileSync(join(CORPUS, 'labels.json'), 'utf8')) as { apps: App[] }).apps;

/** Quoted strings that are absolute URLs, paths, or relative paths with a slash: the usual regex scan. */
const URL_REGEX = /["'`]((?:https?|wss?):\/\/[^"'`\s<>]+|\/[\w\-.~%:@+$/{}()]*[\w\-}]|[\w\-.]+\/[\w\-.~%:@+$/{}()]+)["'`]/g;

/** One spelling for a value and a label: the product's value rules, then no `{name}`, no edge slashes. */
function normal(value: string): string | null {
  const parts = endpointValue(value.replace(/\$\{[^}]*\}/g, '{}'));
  return parts ? parts.value.replace(/\{[^}]*\}/g, '{}').replace(/^\.?\/+|\/+$/g, '') : null;
}

/** The scanners alone, on this thread, as a content worker runs them: the parse's own cost. */
function scanOnly(files: string[], texts: string[]): number {
  let hits = 0;
  const scan = (source: ScanSource) => (hits += (scanJavaScript(source, 0.02) ?? scanStrings(source, 20_000)).hits.length);
  texts.forEach((text, i) => {
    const source: ScanSource = {
      type: files[i]!.endsWith('.map') ? 'source-map' : 'javascript',
      text,
      name: 'bench',
      pageUrl: 'http://bench.test/',
    };
    if (source.type === 'javascript') scan(source);
    else unpackSourceMap(source, 2000)?.sources?.forEach(scan);
  });
  return hits;
}

function regexScan(texts: string[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts)
    for (const match of text.matchAll(URL_REGEX)) {
      const value = normal(match[1]!);
      if (value) found.add(value);
    }
  return found;
}

interface Score {
  found: number;
  correct: number;
  labelled: number;
  precision: number;
  recall: number;
  missed: string[];
  wrong: string[];
}

function score(found: Set<string>, labels: Set<string>): Score {
  const correct = [...found].filter((v) => labels.has(v)).length;
  return {
    found: found.size,
    correct,
    labelled: labels.size,
    precision: found.size ? correct / found.size : 1,
    recall: labels.size ? correct / labels.size : 1,
    missed: [...labels].filter((v) => !found.has(v)),
    wrong: [...found].filter((v) => !labels.has(v)),
  };
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

const routes: Record<string, { body: string; headers: Record<string, string> }> = {};
for (const app of apps) {
  const tags = app.scripts.map((s) => `<script src="/${app.name}/${s}"></script>`).join('');
  routes[`/${app.name}/`] = {
    body: `<!doctype html><html><head><title>${app.name}</title></head><body><div id="root"></div>${tags}</body></html>`,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  };
  for (const file of [...app.scripts, ...(app.maps ?? [])]) {
    routes[`/${app.name}/${file}`] = {
      body: readFileSync(join(CORPUS, app.name, file), 'utf8'),
      headers: { 'content-type': file.endsWith('.map') ? 'application/json' : 'application/javascript' },
    };
  }
}
const site = startFixtureSite(routes);
const trawl = await startTrawlServer({ overrides: { log: { level: 'silent' } } });

const rows = [];
const totals = { trawl: { found: new Set<string>(), scores: [] as Score[] }, regex: { scores: [] as Score[] } };
let trawlMs = 0;
let regexMs = 0;
let scanMs = 0;
let megabytes = 0;
try {
  for (const app of apps) {
    const files = [...app.scripts, ...(app.maps ?? [])].map((f) => join(CORPUS, app.name, f));
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    const mb = files.reduce((sum, f) => sum + statSync(f).size, 0) / 2 ** 20;
    const labels = new Set(app.endpoints.map((e) => normal(e)!));
    const call = async () => {
      const res = await fetch(`${trawl.url}/v1/endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.at(`/${app.name}/`), include_third_party: true }),
      });
      if (res.status !== 200) throw new Error(`${app.name}: /v1/endpoints answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { endpoints: Array<{ value: string }> };
    };
    await call(); // warm-up: workers booted, parser compiled
    const times: number[] = [];
    let answer = await call();
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      answer = await call();
      times.push(performance.now() - started);
    }
    const regexTimes: number[] = [];
    let regexFound = new Set<string>();
    for (let i = 0; i < RUNS + 1; i++) {
      const started = performance.now();
      regexFound = regexScan(texts);
      regexTimes.push(performance.now() - started);
    }
    const scanTimes: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const started = performance.now();
      scanOnly(files, texts);
      scanTimes.push(performance.now() - started);
    }
    scanMs += median(scanTimes.slice(1));
    const trawlFound = new Set(answer.endpoints.flatMap((e) => normal(e.value) ?? []));
    const trawlScore = score(trawlFound, labels);
    const regexScore = score(regexFound, labels);
    totals.trawl.scores.push(trawlScore);
    totals.regex.scores.push(regexScore);
    trawlMs += median(times);
    regexMs += median(regexTimes.slice(1));
    megabytes += mb;
    rows.push({
      app: app.name,
      mb: round(mb),
      trawl: trawlScore,
      regex: regexScore,
      trawlMs: round(median(times), 1),
      regexMs: round(median(regexTimes.slice(1)), 2),
    });
  }
} finally {
  await trawl.stop();
  await site.stop();
}

const micro = (scores: Score[]) => {
  const found = scores.reduce((s, x) => s + x.found, 0);
  const correct = scores.reduce((s, x) => s + x.correct, 0);
  const labelled = scores.reduce((s, x) => s + x.labelled, 0);
  return { found, correct, labelled, precision: round(found ? correct / found : 1), recall: round(correct / labelled) };
};
const summary = {
  trawl: { ...micro(totals.trawl.scores), msPerMb: round(trawlMs / megabytes, 1), scannersMsPerMb: round(scanMs / megabytes, 1) },
  regex: { ...micro(totals.regex.scores), msPerMb: round(regexMs / megabytes, 1) },
  megabytes: round(megabytes),
  runs: RUNS,
};

console.log('app              MB     | /v1/endpoints P / R (found)   ms | regex P / R (found)          ms');
for (const r of rows) {
  const cell = (s: Score) => `${s.precision.toFixed(2)} / ${s.recall.toFixed(2)} (${String(s.found).padStart(4)})`;
  console.log(
    `${r.app.padEnd(16)} ${r.mb.toFixed(2).padStart(5)}  | ${cell(r.trawl)}  ${String(r.trawlMs).padStart(6)} | ${cell(r.regex)}  ${String(r.regexMs).padStart(6)}`,
  );
}
console.log(
  `\nall ${summary.megabytes} MB: /v1/endpoints precision ${summary.trawl.precision}, recall ${summary.trawl.recall}, ${summary.trawl.msPerMb} ms/MB (a whole call over HTTP; the scanners alone ${summary.trawl.scannersMsPerMb}) · regex precision ${summary.regex.precision}, recall ${summary.regex.recall}, ${summary.regex.msPerMb} ms/MB`,
);
for (const r of rows)
  if (r.trawl.missed.length || r.trawl.wrong.length)
    console.log(`${r.app}: missed ${JSON.stringify(r.trawl.missed)}, wrong ${JSON.stringify(r.trawl.wrong)}`);

mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(args.out!, `${JSON.stringify({ date: new Date().toISOString(), summary, apps: rows }, null, 2)}\n`);
process.exit(0);
