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
 * Besides wall-clock numbers it reports CPU time per request, split by thread (server thread,
 * content workers, the JIT and GC helpers, Chromium, this load generator): on a shared machine
 * those move far less than requests per second do, and they show where a configuration spends.
 *
 *   bun run bench scrape-load [--seconds 30] [--warmup 30] [--clients 50] [--pages 300] [--rounds 1]
 *     [--auto-render] [--config "name=KEY=VALUE[,KEY=VALUE…]"]… [--compare DIR] [--out FILE]
 *
 * Without --config it compares `single` (TRAWL_WORKERS_SIZE=0) with `pool` (the default size).
 *
 * The ceiling: with everything on the server thread, only that thread's CPU limits throughput;
 * the JIT and GC helpers, the allocator's threads and the load generator run on the other cores
 * for nothing. Spread over every core, the first configuration's whole CPU per request (server
 * process, its children and the load generator) allows at most `cores × 1000 / that` requests a
 * second, however little a pool adds. Each round reports that ceiling, its ratio to the first
 * configuration and every configuration's share of it, so a target ratio can be checked against
 * what the machine allows before the pool's own cost is blamed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadHtml, loadTruth, selectIds } from './extraction-data.ts';
import { cpuMs, envFromPairs } from './processes.ts';
import { processTree, sampleTreeRss, startServerProcess, type ServerProcess } from '../test/helpers/server-process.ts';
import { median } from './stats.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '30' },
    clients: { type: 'string', default: '50' },
    pages: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '1' },
    'auto-render': { type: 'boolean', default: false },
    config: { type: 'string', multiple: true },
    compare: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench/results/scrape-load.json') },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
/**
 * Seconds of unmeasured load before each measurement. A fresh server spends its first seconds
 * compiling (JavaScriptCore's JIT, once per thread: the server thread and every worker) and that
 * is not its throughput; the measurement is of a server that has been running. After 10 s the two
 * workers, each having seen half the pages, were still compiling (JIT 1.8–3.0 ms of CPU per request
 * against the server thread's 1.4–1.6); after 30 s they are level with it (1.36 against 1.38).
 */
const WARMUP = Number(args.warmup);
/** One request may take this long before it counts as an error (a stalled server, not a slow one). */
const REQUEST_TIMEOUT_MS = 60_000;

interface Setup {
  name: string;
  root: string;
  env: Record<string, string>;
}

/** `name=KEY=VALUE,KEY=VALUE` → a named environment; a bare name is today's defaults. */
function parseConfig(spec: string): Omit<Setup, 'root'> {
  const [name, ...rest] = spec.split('=');
  const pairs = rest.join('=').split(',').filter(Boolean);
  const env = envFromPairs(pairs, `--config "${spec}":`);
  if (!name) throw new Error(`--config "${spec}": the configuration needs a name`);
  return { name, env };
}

/**
 * Without --config: the server thread alone against the default pool (a worker per core less one), on
 * static pages. Automatic rendering is off unless --auto-render: when the browser renders some of
 * the pages, Chromium's CPU is measured too.
 */
const AUTO_RENDER = args['auto-render'] ? '' : ',TRAWL_PLUGINS_FETCHER_BROWSER_AUTO_RENDER=false';
const DEFAULT_CONFIGS = [`single=TRAWL_WORKERS_SIZE=0${AUTO_RENDER}`, `pool=${AUTO_RENDER.slice(1)}`];
const configs = (args.config?.length ? args.config : DEFAULT_CONFIGS).map(parseConfig);
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
      return html === undefined
        ? new Response('not found', { status: 404 })
        : new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
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
  /**
   * CPU time per request in ms: the server process (its JavaScript thread, content workers, GC and
   * JIT helpers, other threads), its child processes (Chromium) and this benchmark (clients and the
   * fixture site). Unlike requests per second, these barely move when other work shares the machine.
   */
  cpuMsPerRequest: Record<string, number>;
  /** Wall time per request in each `Server-Timing` stage; what latency has beyond their sum is waiting (for a worker, for a core). */
  stageMsPerRequest: Record<string, number>;
}

/** CPU used so far by the server (split by thread), its children and this process. */
function cpuNow(pid: number): Record<string, number> {
  const server = cpuMs(pid);
  const children = processTree(pid)
    .slice(1)
    .reduce((sum, child) => sum + cpuMs(child).total, 0);
  // process.cpuUsage() leaves out the threads Bun's fetch runs on; /proc counts them all.
  return {
    server: server.total,
    main: server.main,
    workers: server.workers,
    gc: server.gc,
    jit: server.jit,
    other: server.other,
    children,
    bench: cpuMs(process.pid).total,
  };
}

const scrape = (server: ServerProcess, url: string) =>
  server.post('/v1/scrape', { url, formats: ['markdown'], only_main_content: true, no_cache: true }, { timeoutMs: REQUEST_TIMEOUT_MS });

/** Adds a response's `Server-Timing` stage durations (wall ms, where the stage ran) to `into`. */
function addStages(header: string | null, into: Record<string, number>): void {
  for (const part of (header ?? '').split(', ')) {
    const [name, dur] = part.split(';dur=');
    if (name && dur) into[name] = (into[name] ?? 0) + Number(dur);
  }
}

const perRequest = (total: number, requests: number) => Math.round((total / Math.max(1, requests)) * 100) / 100;

/** `seconds` of load from CLIENTS clients; a client sends its next request when the last one is answered. */
async function load(server: ServerProcess, urls: string[], seconds: number, offset = 0): Promise<Load> {
  const latencies: number[] = [];
  const stages: Record<string, number> = {};
  const samples = new Set<string>();
  let errors = 0;
  const rss = sampleTreeRss(server.pid);
  const cpuBefore = cpuNow(server.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  const client = async (first: number) => {
    for (let i = first; performance.now() < until; i += CLIENTS) {
      const begun = performance.now();
      let problem: string | null = null;
      try {
        const response = await scrape(server, urls[i % urls.length]!);
        const text = await response.text();
        addStages(response.headers.get('server-timing'), stages);
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
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(offset + i)));
  const elapsed = (performance.now() - started) / 1000;
  const memory = rss.stop();
  const cpuAfter = cpuNow(server.pid);
  const count = latencies.length;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(count - 1, Math.floor(q * count))] ?? 0);
  return {
    requests: count,
    requestsPerSecond: Math.round((count / elapsed) * 10) / 10,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors,
    errorSamples: [...samples],
    startRssMb: memory.startMb,
    peakRssMb: memory.peakMb,
    cpuMsPerRequest: Object.fromEntries(Object.entries(cpuAfter).map(([k, v]) => [k, perRequest(v - cpuBefore[k]!, count)])),
    stageMsPerRequest: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, perRequest(v, count)])),
  };
}

/** Starts the setup's server, warms it (WARMUP seconds of the same load, not counted), measures, stops it. */
async function measure(setup: Setup, urls: string[], round: number): Promise<Load> {
  const server = await startServerProcess({ root: setup.root, env: setup.env });
  try {
    if (WARMUP > 0) await load(server, urls, WARMUP, round * CLIENTS);
    return await load(server, urls, SECONDS);
  } finally {
    await server.stop();
  }
}

/** Requests per second if all cores were busy at `load`'s CPU per request (see the header). */
function ceilingOf(load: Load): number {
  const { server, children, bench } = load.cpuMsPerRequest;
  return (availableParallelism() * 1000) / (server! + children! + bench!);
}

const list = (values: Record<string, number>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
const first = setups[0]!.name;
const site = startSite(Number(args.pages));
const rounds: Record<string, Load>[] = [];
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const results: Record<string, Load> = {};
    for (const setup of setups) {
      const result = await measure(setup, site.urls, round);
      results[setup.name] = result;
      console.log(
        `round ${round + 1} ${setup.name}: ${result.requestsPerSecond} req/s (${result.requests} in ${SECONDS} s), p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
          `errors ${result.errors}, RSS ${result.startRssMb} → peak ${result.peakRssMb} MB\n  CPU ms/request: ${list(result.cpuMsPerRequest)}\n  stage ms/request: ${list(result.stageMsPerRequest)}${result.errorSamples.length ? `\n  errors: ${result.errorSamples.join(' | ')}` : ''}`,
      );
    }
    const ceiling = ceilingOf(results[first]!);
    console.log(
      `round ${round + 1} ceiling (${first}'s CPU per request on ${availableParallelism()} cores): ${Math.round(ceiling * 10) / 10} req/s, ` +
        `${Math.round((ceiling / results[first]!.requestsPerSecond) * 100) / 100}× ${first}; share of it: ` +
        setups.map((setup) => `${setup.name} ${Math.round((results[setup.name]!.requestsPerSecond / ceiling) * 100)}%`).join(', '),
    );
    rounds.push(results);
  }
} finally {
  site.stop();
}

const ceilings = rounds.map((r) => ceilingOf(r[first]!));
const summary = Object.fromEntries(
  setups.map((setup) => [
    setup.name,
    {
      env: setup.env,
      root: setup.root,
      medianRequestsPerSecond: median(rounds.map((r) => r[setup.name]!.requestsPerSecond)),
      medianRatioToFirst: Math.round(median(rounds.map((r) => r[setup.name]!.requestsPerSecond / r[first]!.requestsPerSecond)) * 100) / 100,
      /** Median share of the round's ceiling (see the header). */
      medianShareOfCeiling: Math.round(median(rounds.map((r, i) => r[setup.name]!.requestsPerSecond / ceilings[i]!)) * 100) / 100,
      medianP50Ms: median(rounds.map((r) => r[setup.name]!.p50Ms)),
      medianP99Ms: median(rounds.map((r) => r[setup.name]!.p99Ms)),
      errors: rounds.reduce((n, r) => n + r[setup.name]!.errors, 0),
      peakRssMb: Math.max(...rounds.map((r) => r[setup.name]!.peakRssMb)),
      /** Each thread group's median CPU ms per request over the rounds. */
      medianCpuMsPerRequest: Object.fromEntries(
        Object.keys(rounds[0]![setup.name]!.cpuMsPerRequest).map((k) => [k, median(rounds.map((r) => r[setup.name]!.cpuMsPerRequest[k]!))]),
      ),
    },
  ]),
);
const ceiling = {
  cores: availableParallelism(),
  medianRequestsPerSecond: Math.round(median(ceilings) * 10) / 10,
  medianRatioToFirst: Math.round(median(rounds.map((r, i) => ceilings[i]! / r[first]!.requestsPerSecond)) * 100) / 100,
};
console.log(JSON.stringify({ ceiling, summary }, null, 2));
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, seconds: SECONDS, warmupSeconds: WARMUP, clients: CLIENTS, pages: site.urls.length, rounds, ceiling, summary }, null, 2)}\n`,
);
console.log(`written ${args.out}`);
