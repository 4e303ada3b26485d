#!/usr/bin/env bun
/**
 * Browser rendering benchmark: `bun run bench browser [--pool 40] [--launch 10] [--soak 500] [--concurrency 4]`.
 *
 * In one run, against a local page whose content is rendered by script from a JSON request, through
 * the real render path (the browser fetcher plugin):
 *  1. pages/s through the pool (one browser, a fresh context per page), one page at a time;
 *  2. the baseline, launching a browser per page (launch, render, close), one page at a time;
 *  3. pages/s through the pool with --concurrency pages at once;
 *  4. memory soak: --soak renders through the pool, memory after 100 and at the end (growth must
 *     stay within 20 %), with the default browser recycling and with recycling switched off;
 *  5. median latency of single pages arriving after an idle gap (as an API server sees them), with
 *     the pool's warm spare context and without (`browser.warmSpare`), interleaved.
 * Prints a table and writes bench/results/browser.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import { createBrowserPool } from '../core/browser/pool.ts';
import { requireChromium } from '../core/browser/testing.ts';
import type { BrowserPool } from '../core/services.ts';
import { Tokens } from '../core/tokens.ts';
import type { ActionCatalog, PluginContext } from '../core/plugin.ts';
import { browserFetcher } from '../plugins/fetcher/browser/browser.ts';
import { PageDocument } from '../core/document.ts';
import { createJob } from '../core/job.ts';
import { testRequest } from '../test/helpers/plugin-context.ts';
import { mb, sampleMemory, type MemorySample } from './browser-memory.ts';
import { median } from './stats.ts';

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pool: { type: 'string', default: '40' },
    launch: { type: 'string', default: '10' },
    soak: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '4' },
    gaps: { type: 'string', default: '15' },
    out: { type: 'string', default: join(import.meta.dir, 'results/browser.json') },
  },
});
const counts = {
  pool: Number(args.pool),
  launch: Number(args.launch),
  soak: Number(args.soak),
  concurrency: Number(args.concurrency),
  gaps: Number(args.gaps),
};
const SOAK_CHECKPOINT = 100;
const MAX_GROWTH = 0.2;
const GAP_MS = 400;

requireChromium();
const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} about tides, harbours and the keepers of old lighthouses.`);
const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    if (new URL(req.url).pathname === '/data.json') return Response.json({ title: 'Rendered story', paragraphs });
    return new Response(
      `<!doctype html><html><head><title>Bench</title></head><body><div id="root"></div><script>
        fetch('/data.json').then((r) => r.json()).then((d) => {
          document.getElementById('root').innerHTML = '<h1>' + d.title + '</h1>' + d.paragraphs.map((p) => '<p>' + p + '</p>').join('');
        });
      </script></body></html>`,
      { headers: { 'content-type': 'text/html; charset=utf-8' } },
    );
  },
});
const url = `http://127.0.0.1:${site.port}/story`;
const logger = pino({ level: 'silent' });

function configWith(browser: Record<string, unknown> = {}) {
  return loadConfig({
    plugins: [],
    env: {},
    overrides: { log: { level: 'silent' }, fetch: { allowPrivateNetwork: true }, browser: { maxContexts: counts.concurrency, ...browser } },
  });
}

async function renderer(pool: BrowserPool, config: ReturnType<typeof configWith>) {
  const catalog: ActionCatalog = { find: () => undefined, types: () => [] };
  const services = new Map<unknown, unknown>([
    [Tokens.Browser, pool],
    [Tokens.Actions, catalog],
  ]);
  const ctx = { logger, config, resolve: (token: unknown) => services.get(token) } as PluginContext;
  const fetcher = await browserFetcher.setup(browserFetcher.options!.parse({}), ctx);
  return async () => {
    const doc = new PageDocument(createJob(testRequest({ url, render: true }), 'bench', new AbortController().signal));
    await fetcher.fetch(doc);
    if (!doc.response?.text?.includes('Paragraph 30')) throw new Error('the page was not rendered');
  };
}

/** Runs `total` renders, `concurrency` at a time; returns pages per second. */
async function timed(total: number, concurrency: number, render: () => Promise<void>, onDone?: (done: number) => void): Promise<number> {
  let next = 0;
  let done = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next++;
      await render();
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return total / ((performance.now() - started) / 1000);
}

const round = (n: number) => Math.round(n * 100) / 100;

// 1 + 3: through the pool (after one warm-up render, so the launch is not counted).
const config = configWith();
const pool = createBrowserPool(config, logger);
const render = await renderer(pool, config);
await render();
const poolSequential = await timed(counts.pool, 1, render);
const poolConcurrent = await timed(counts.pool, counts.concurrency, render);
await pool.close();

// 2: the baseline, a browser launched and closed for every page.
const perPage = await timed(counts.launch, 1, async () => {
  const own = createBrowserPool(config, logger);
  try {
    await (await renderer(own, config))();
  } finally {
    await own.close();
  }
});

// 4: memory over a long run, with the default recycling and without any.
async function soak(browser: Record<string, unknown>): Promise<{ at100: MemorySample; atEnd: MemorySample; launches: number }> {
  const soakConfig = configWith(browser);
  const soakPool = createBrowserPool(soakConfig, logger);
  const soakRender = await renderer(soakPool, soakConfig);
  let at100: MemorySample | undefined;
  await timed(counts.soak, counts.concurrency, soakRender, (done) => {
    if (done === SOAK_CHECKPOINT) at100 = sampleMemory();
  });
  const atEnd = sampleMemory();
  const { launches } = soakPool.stats();
  await soakPool.close();
  return { at100: at100!, atEnd, launches };
}
const growth = (a: number, b: number) => round((b - a) / a);
const soaks = {
  recycled: await soak({}),
  unrecycled: await soak({ recycleAfterPages: 1_000_000 }),
};

// 5: single pages after an idle gap, warm spare on and off, taking turns so load changes hit both.
async function gapLatency(): Promise<{ withSpare: number; withoutSpare: number }> {
  const configs = [configWith(), configWith({ warmSpare: false })];
  const pools = configs.map((c) => createBrowserPool(c, logger));
  const renders = await Promise.all(pools.map((p, i) => renderer(p, configs[i]!)));
  for (const r of renders) await r(); // launches are not what is measured here
  const times: number[][] = [[], []];
  for (let i = 0; i < counts.gaps; i++) {
    for (const k of [0, 1]) {
      await Bun.sleep(GAP_MS);
      const started = performance.now();
      await renders[k]!();
      times[k]!.push(performance.now() - started);
    }
  }
  await Promise.all(pools.map((p) => p.close()));
  return { withSpare: Math.round(median(times[0]!)), withoutSpare: Math.round(median(times[1]!)) };
}
const gaps = await gapLatency();
await site.stop(true);

const memoryRows = Object.entries(soaks).map(([name, s]) => ({
  name,
  launches: s.launches,
  processRssMb: [mb(s.at100.processRss), mb(s.atEnd.processRss)],
  browserPssMb: [mb(s.at100.browserPss), mb(s.atEnd.browserPss)],
  processGrowth: growth(s.at100.processRss, s.atEnd.processRss),
  totalGrowth: growth(s.at100.processRss + s.at100.browserPss, s.atEnd.processRss + s.atEnd.browserPss),
}));
const result = {
  date: new Date().toISOString(),
  machine: { cpus: navigator.hardwareConcurrency, bun: Bun.version },
  counts,
  pagesPerSecond: { poolSequential: round(poolSequential), launchPerPage: round(perPage), poolConcurrent: round(poolConcurrent) },
  poolSpeedup: round(poolSequential / perPage),
  memory: memoryRows,
  memoryWithinLimit: memoryRows.find((r) => r.name === 'recycled')!.totalGrowth <= MAX_GROWTH,
  medianLatencyAfterIdleMs: gaps,
};

console.log(`\nrendered pages per second (${url})`);
console.table({
  'pool, 1 at a time': { pages: counts.pool, 'pages/s': round(poolSequential) },
  'browser launched per page': { pages: counts.launch, 'pages/s': round(perPage) },
  [`pool, ${counts.concurrency} at a time`]: { pages: counts.pool, 'pages/s': round(poolConcurrent) },
});
console.log(`pool vs launch per page: ${result.poolSpeedup}x`);
console.log(`\nmemory after ${SOAK_CHECKPOINT} and after ${counts.soak} renders (MB; browser = PSS of all Chromium processes)`);
console.table(
  Object.fromEntries(
    memoryRows.map((r) => [
      r.name,
      {
        launches: r.launches,
        'process RSS': r.processRssMb.join(' → '),
        'browser PSS': r.browserPssMb.join(' → '),
        'process growth': r.processGrowth,
        'total growth': r.totalGrowth,
      },
    ]),
  ),
);
console.log(`total growth with default recycling ≤ ${MAX_GROWTH * 100} %: ${result.memoryWithinLimit ? 'yes' : 'NO'}`);
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(args.out!, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `\nmedian latency of a page after a ${GAP_MS} ms idle gap (${counts.gaps} each): warm spare ${gaps.withSpare} ms, without ${gaps.withoutSpare} ms`,
);
console.log(`results: ${args.out}`);
