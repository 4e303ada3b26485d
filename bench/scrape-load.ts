#!/usr/bin/env bun
/**
 * Uncached scrape throughput under load: N concurrent clients scrape distinct pages of the
 * main-content dev set (served from memory by a fixture site on 127.0.0.1) through the HTTP API of
 * a real `bun server/main.ts` process, `no_cache`, markdown of the main content, for a fixed time.
 * Reports requests per second, p50/p99 latency, errors and the peak RSS of the server's process
 * tree. Several configurations run side by side in the same run, each a server started with its
 * own environment (`--config "pool=TRAWL_WORKERS_SIZE=2"`), and `--compare DIR` runs every
 * configuration of another checkout too (before/after a change). Rounds alternate the servers so
 * the shared machine's load swings hit them alike; the summary takes each one's median.
 *
 *   bun run bench scrape-load [--seconds 30] [--clients 50] [--pages 300] [--rounds 1]
 *     [--config "name=KEY=VALUE[,KEY=VALUE…]"]… [--compare DIR] [--out FILE]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadHtml, loadTruth, selectIds } from './extraction-data.ts';
import { sampleTreeRss, startServerProcess, type ServerProcess } from '../test/helpers/server-process.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '50' },
    pages: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '1' },
    config: { type: 'string', multiple: true },
    compare: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench/results/scrape-load.json') },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
/** One request may take this long before it counts as an error (a stalled server, not a slow one). */
const REQUEST_TIMEOUT_MS = 60_000;

interface Setup { name: string; root: string; env: Record<string, string> }

/** `name=KEY=VALUE,KEY=VALUE` → a named environment; a bare name is today's defaults. */
function parseConfig(spec: string): Omit<Setup, 'root'> {
  const [name, ...rest] = spec.split('=');
  const pairs = rest.join('=').split(',').filter(Boolean);
  const env = Object.fromEntries(pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--config "${spec}": expected name=KEY=VALUE[,KEY=VALUE…]`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
  if (!name) throw new Error(`--config "${spec}": the configuration needs a name`);
  return { name, env };
}

const configs = (args.config?.length ? args.config : ['default']).map(parseConfig);
const setups: Setup[] = [
  ...configs.map((c) => ({ ...c, root: ROOT })),
  ...(args.compare ? configs.map((c) => ({ ...c, name: `${c.name} (${args.compare})`, root: args.compare! })) : []),
];

/** The dev set's pages by path, so every concurrent client asks for a different page. */
function startSite(count: number) {
  const ids = selectIds(loadTruth(), { limit: count });
  const pages = new Map(ids.map((id) => [`/${id}`, loadHtml(id)]));
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const html = pages.get(new URL(req.url).pathname);
      return html === undefined ? new Response('not found', { status: 404 }) : new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    },
  });
  return { urls: ids.map((id) => `http://127.0.0.1:${server.port}/${id}`), stop: () => server.stop(true) };
}

interface Load {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** The first few distinct error answers, for reading what went wrong. */
  errorSamples: string[];
  startRssMb: number;
  peakRssMb: number;
}

const scrape = (server: ServerProcess, url: string) =>
  server.post('/v1/scrape', { url, formats: ['markdown'], only_main_content: true, no_cache: true }, { timeoutMs: REQUEST_TIMEOUT_MS });

async function load(server: ServerProcess, urls: string[]): Promise<Load> {
  const latencies: number[] = [];
  const samples = new Set<string>();
  let errors = 0;
  const rss = sampleTreeRss(server.pid);
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const client = async (offset: number) => {
    for (let i = offset; performance.now() < until; i += CLIENTS) {
      const begun = performance.now();
      let problem: string | null = null;
      try {
        const response = await scrape(server, urls[i % urls.length]!);
        const text = await response.text();
        if (response.status !== 200) problem = `${response.status} ${text.slice(0, 160)}`;
      } catch (err) {
        problem = (err as Error).message;
      }
      latencies.push(performance.now() - begun);
      if (problem !== null) {
        errors++;
        if (samples.size < 5) samples.add(problem);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  const elapsed = (performance.now() - started) / 1000;
  const memory = rss.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    requests: latencies.length,
    requestsPerSecond: Math.round((latencies.length / elapsed) * 10) / 10,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors,
    errorSamples: [...samples],
    startRssMb: memory.startMb,
    peakRssMb: memory.peakMb,
  };
}

/** Starts the setup's server, warms it (one scrape per client, not counted), measures, stops it. */
async function measure(setup: Setup, urls: string[], round: number): Promise<Load> {
  const server = await startServerProcess({ root: setup.root, env: setup.env });
  try {
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => scrape(server, urls[(i + round * CLIENTS) % urls.length]!).then((r) => r.arrayBuffer()).catch(() => {})));
    return await load(server, urls);
  } finally {
    await server.stop();
  }
}

const site = startSite(Number(args.pages));
const rounds: Record<string, Load>[] = [];
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const results: Record<string, Load> = {};
    for (const setup of setups) {
      const result = await measure(setup, site.urls, round);
      results[setup.name] = result;
      console.log(`round ${round + 1} ${setup.name}: ${result.requestsPerSecond} req/s (${result.requests} in ${SECONDS} s), p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
        `errors ${result.errors}, RSS ${result.startRssMb} → peak ${result.peakRssMb} MB${result.errorSamples.length ? `\n  errors: ${result.errorSamples.join(' | ')}` : ''}`);
    }
    rounds.push(results);
  }
} finally {
  site.stop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const first = setups[0]!.name;
const summary = Object.fromEntries(setups.map((setup) => [setup.name, {
  env: setup.env,
  root: setup.root,
  medianRequestsPerSecond: median(rounds.map((r) => r[setup.name]!.requestsPerSecond)),
  medianRatioToFirst: Math.round(median(rounds.map((r) => r[setup.name]!.requestsPerSecond / r[first]!.requestsPerSecond)) * 100) / 100,
  medianP50Ms: median(rounds.map((r) => r[setup.name]!.p50Ms)),
  medianP99Ms: median(rounds.map((r) => r[setup.name]!.p99Ms)),
  errors: rounds.reduce((n, r) => n + r[setup.name]!.errors, 0),
  peakRssMb: Math.max(...rounds.map((r) => r[setup.name]!.peakRssMb)),
}]));
console.log(JSON.stringify(summary, null, 2));
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(args.out!, `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, seconds: SECONDS, clients: CLIENTS, pages: site.urls.length, rounds, summary }, null, 2)}\n`);
console.log(`written ${args.out}`);
