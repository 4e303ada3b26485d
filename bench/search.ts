#!/usr/bin/env bun
/**
 * POST /v1/search, two numbers from one run against real `bun server/main.ts` processes:
 *
 * 1. Parallel scraping: a search whose 10 results are local pages that each answer after a
 *    realistic 200 ms, scraped by a server with the default `search.concurrency` (10) against the
 *    named baseline, the same server build with `search.concurrency = 1` (one page after
 *    another). Rounds alternate which goes first; every search uses a new query and `no_cache`.
 *    Reported: the wall-time ratio baseline / parallel (target ≥ 4×).
 * 2. The search call's own cost: `scrape: false` searches through Trawl against the baseline of
 *    asking the same SearXNG test server (test/servers/searxng.ts, `--provider-delay` ms) directly,
 *    interleaved. Reported: median Trawl time − median direct time (target ≤ 20 ms).
 *
 *   bun run bench search [--rounds 7] [--calls 40] [--page-delay 200] [--provider-delay 50]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServerProcess, type ServerProcess } from '../test/helpers/server-process.ts';
import { startSearxngServer } from '../test/servers/searxng.ts';
import { median } from './stats.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    rounds: { type: 'string', default: '7' },
    calls: { type: 'string', default: '40' },
    'page-delay': { type: 'string', default: '200' },
    'provider-delay': { type: 'string', default: '50' },
    out: { type: 'string', default: join(ROOT, 'bench/results/search.json') },
  },
});
const ROUNDS = Number(args.rounds);
const CALLS = Number(args.calls);
const PAGE_DELAY_MS = Number(args['page-delay']);
const RESULTS = 10;

const page = (n: number) =>
  `<!doctype html><html lang="en"><head><title>Result ${n}</title><meta name="description" content="Result page ${n}"></head><body>` +
  `<nav><a href="/">Home</a></nav><article><h1>Result ${n}</h1>${'<p>A paragraph of text that reads like prose, with a <a href="/x">link</a>.</p>'.repeat(40)}</article></body></html>`;

const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    await Bun.sleep(PAGE_DELAY_MS);
    return new Response(page(Number(new URL(req.url).pathname.split('/').pop()) || 0), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  },
});
// Every query lists its own pages, so no page is ever served from a cache.
const searx = startSearxngServer({
  delayMs: Number(args['provider-delay']),
  results: (query) =>
    Array.from({ length: RESULTS }, (_, i) => ({
      url: `http://127.0.0.1:${site.port}/${encodeURIComponent(query)}/${i + 1}`,
      title: `Result ${i + 1}`,
      snippet: `About ${query}`,
    })),
});

const round2 = (n: number) => Math.round(n * 100) / 100;
let queryCount = 0;

async function timedSearch(server: ServerProcess, body: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const response = await server.post(
    '/v1/search',
    { query: `bench query ${++queryCount}`, no_cache: true, num_results: RESULTS, ...body },
    { timeoutMs: 60_000 },
  );
  const answer = (await response.json()) as { results?: Array<{ markdown?: string; error?: string }>; error?: string };
  const elapsed = performance.now() - started;
  if (response.status !== 200 || answer.results?.length !== RESULTS)
    throw new Error(`search answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  if (body.scrape !== false && answer.results.some((r) => !r.markdown))
    throw new Error(`a page was not scraped: ${JSON.stringify(answer.results.find((r) => !r.markdown))}`);
  return elapsed;
}

async function timedDirect(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${searx.url}/search?${new URLSearchParams({ q: `direct ${++queryCount}`, format: 'json', pageno: '1' })}`, {
    headers: { accept: 'application/json' },
  });
  await response.json();
  return performance.now() - started;
}

const env = { TRAWL_PLUGINS_SEARCH_SEARXNG_URL: searx.url };
const parallel = await startServerProcess({ env });
const serial = await startServerProcess({ env: { ...env, TRAWL_SEARCH_CONCURRENCY: '1' } });

const scraping: Array<{ parallelMs: number; serialMs: number }> = [];
const overhead: Array<{ searchMs: number; directMs: number }> = [];
try {
  // Warm-up: content workers started, code paths compiled, on both servers.
  for (const server of [parallel, serial]) await timedSearch(server, {});
  for (let i = 0; i < 5; i++) await timedSearch(parallel, { scrape: false });

  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [parallel, serial] : [serial, parallel];
    const times = new Map<ServerProcess, number>();
    for (const server of order) times.set(server, await timedSearch(server, {}));
    const result = { parallelMs: Math.round(times.get(parallel)!), serialMs: Math.round(times.get(serial)!) };
    scraping.push(result);
    console.log(
      `round ${round + 1}: 10 pages in parallel ${result.parallelMs} ms, one after another ${result.serialMs} ms (${round2(result.serialMs / result.parallelMs)}x)`,
    );
  }
  for (let i = 0; i < CALLS; i++) {
    const first = i % 2 === 0;
    const directFirst = first ? await timedDirect() : 0;
    const searchMs = await timedSearch(parallel, { scrape: false });
    const directMs = first ? directFirst : await timedDirect();
    overhead.push({ searchMs: round2(searchMs), directMs: round2(directMs) });
  }
} finally {
  await parallel.stop();
  await serial.stop();
  await searx.stop();
  site.stop(true);
}

const summary = {
  scraping: {
    baseline: 'the same server with search.concurrency = 1 (pages one after another)',
    medianParallelMs: median(scraping.map((r) => r.parallelMs)),
    medianSerialMs: median(scraping.map((r) => r.serialMs)),
    medianRatio: round2(median(scraping.map((r) => r.serialMs / r.parallelMs))),
    target: '>= 4',
  },
  searchOverhead: {
    baseline: 'the same SearXNG test server asked directly',
    medianSearchMs: round2(median(overhead.map((o) => o.searchMs))),
    medianDirectMs: round2(median(overhead.map((o) => o.directMs))),
    medianOverheadMs: round2(median(overhead.map((o) => o.searchMs)) - median(overhead.map((o) => o.directMs))),
    target: '<= 20',
  },
};
console.log(JSON.stringify(summary, null, 2));
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  `${JSON.stringify({ date: new Date().toISOString(), results: RESULTS, pageDelayMs: PAGE_DELAY_MS, providerDelayMs: Number(args['provider-delay']), scraping, overhead, summary }, null, 2)}\n`,
);
