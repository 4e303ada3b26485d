/**
 * Shared by the cached-scrape benchmarks (scrape-cached, cloud-overhead): the fixture site of
 * distinct article pages, and a closed-loop load — a number of clients each sending its next
 * request when the last one is answered, for a fixed time, against one server or several taking
 * turns — with latencies, errors, cache misses, the server's peak memory and the server process's
 * CPU time per request.
 */
import { readFileSync } from 'node:fs';
import { rssMb } from './processes.ts';
import { quantile } from './stats.ts';

/** One article per path (`/0`, `/1`, …), distinct so every URL is its own cache row. */
export function startArticleSite() {
  const page = (i: number) =>
    `<!doctype html><html lang="en"><head><title>Article ${i}</title><meta name="description" content="Story ${i}"></head><body>` +
    `<nav><a href="/">Home</a></nav><article><h1>Article ${i}</h1>${'<p>Some paragraph text that reads like prose, with a <a href="/x">link</a>.</p>'.repeat(30)}</article></body></html>`;
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) =>
      new Response(page(Number(new URL(req.url).pathname.slice(1)) || 0), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  });
}

export interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server process's CPU time per answered request: the overhead even when the clients set the pace. */
  serverCpuUsPerRequest: number;
  errors: number;
  misses: number;
  peakRssMb: number;
}

/** CPU time a process has used, in µs (utime + stime of /proc/<pid>/stat, at 100 ticks a second). */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Sample {
  latencies: number[];
  errors: number;
  misses: number;
  cpuUs: number;
  peak: number;
}

async function sample(options: { seconds: number; clients: number; pid: number; send: (i: number) => Promise<Response> }): Promise<Sample> {
  const { seconds, clients, pid } = options;
  const out: Sample = { latencies: [], errors: 0, misses: 0, cpuUs: 0, peak: rssMb(pid) };
  const until = performance.now() + seconds * 1000;
  const client = async (offset: number) => {
    for (let i = offset; performance.now() < until; i += clients) {
      const started = performance.now();
      const response = await options.send(i);
      await response.arrayBuffer();
      out.latencies.push(performance.now() - started);
      if (response.status !== 200) out.errors++;
      else if (response.headers.get('x-trawl-cache') !== 'hit') out.misses++;
    }
  };
  const sampler = setInterval(() => {
    out.peak = Math.max(out.peak, rssMb(pid));
  }, 100);
  const cpuBefore = cpuUs(pid);
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  out.cpuUs = cpuUs(pid) - cpuBefore;
  clearInterval(sampler);
  return out;
}

function summarise(samples: Sample[], seconds: number): Load {
  const latencies = samples.flatMap((s) => s.latencies);
  const at = (q: number) => Math.round(quantile(latencies, q) * 100) / 100;
  const cpu = samples.reduce((sum, s) => sum + s.cpuUs, 0);
  return {
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    serverCpuUsPerRequest: Math.round(cpu / Math.max(1, latencies.length)),
    errors: samples.reduce((n, s) => n + s.errors, 0),
    misses: samples.reduce((n, s) => n + s.misses, 0),
    peakRssMb: Math.round(Math.max(...samples.map((s) => s.peak))),
  };
}

/** `send(i)` makes request number i; a 200 without `X-Trawl-Cache: hit` counts as a miss. */
export async function runLoad(options: {
  seconds: number;
  clients: number;
  pid: number;
  send: (i: number) => Promise<Response>;
}): Promise<Load> {
  return summarise([await sample(options)], options.seconds);
}

export interface LoadTarget {
  name: string;
  pid: number;
  send: (i: number) => Promise<Response>;
}

/**
 * The same load against several servers, taking turns in one-second slices (A B B A …) for
 * `seconds` each: on a machine whose other work comes and goes, every server meets about the
 * same share of it, which one long load after another does not give.
 */
export async function runInterleaved(
  targets: readonly LoadTarget[],
  options: { seconds: number; clients: number },
): Promise<Record<string, Load>> {
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
  for (let slice = 0; slice < options.seconds; slice++) {
    const order = slice % 2 === 0 ? targets : targets.toReversed();
    for (const target of order)
      samples.get(target.name)!.push(await sample({ seconds: 1, clients: options.clients, pid: target.pid, send: target.send }));
  }
  return Object.fromEntries(targets.map((t) => [t.name, summarise(samples.get(t.name)!, options.seconds)]));
}
