/**
 * Shared by the cached-scrape benchmarks (scrape-cached, cloud-overhead): the fixture site of
 * distinct article pages, and a closed-loop load — a number of clients each sending its next
 * request when the last one is answered, for a fixed time — with latencies, errors, cache misses,
 * the server's peak memory and the server process's CPU time per request.
 */
import { readFileSync } from 'node:fs';
import { rssMb } from './processes.ts';

/** One article per path (`/0`, `/1`, …), distinct so every URL is its own cache row. */
export function startArticleSite() {
  const page = (i: number) =>
    `<!doctype html><html lang="en"><head><title>Article ${i}</title><meta name="description" content="Story ${i}"></head><body>` +
    `<nav><a href="/">Home</a></nav><article><h1>Article ${i}</h1>${'<p>Some paragraph text that reads like prose, with a <a href="/x">link</a>.</p>'.repeat(30)}</article></body></html>`;
  return Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => new Response(page(Number(new URL(req.url).pathname.slice(1)) || 0), { headers: { 'content-type': 'text/html; charset=utf-8' } }) });
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

/** `send(i)` makes request number i; a 200 without `X-Trawl-Cache: hit` counts as a miss. */
export async function runLoad(options: { seconds: number; clients: number; pid: number; send: (i: number) => Promise<Response> }): Promise<Load> {
  const { seconds, clients, pid } = options;
  const latencies: number[] = [];
  let errors = 0;
  let misses = 0;
  let peak = rssMb(pid);
  const until = performance.now() + seconds * 1000;
  const client = async (offset: number) => {
    for (let i = offset; performance.now() < until; i += clients) {
      const started = performance.now();
      const response = await options.send(i);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) errors++;
      else if (response.headers.get('x-trawl-cache') !== 'hit') misses++;
    }
  };
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(pid)); }, 100);
  const cpuBefore = cpuUs(pid);
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const cpu = cpuUs(pid) - cpuBefore;
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 100) / 100;
  return {
    requestsPerSecond: Math.round(latencies.length / seconds), p50Ms: at(0.5), p99Ms: at(0.99),
    serverCpuUsPerRequest: Math.round(cpu / Math.max(1, latencies.length)), errors, misses, peakRssMb: Math.round(peak),
  };
}

