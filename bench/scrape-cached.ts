#!/usr/bin/env bun
/**
 * Cached-scrape throughput: what the HTTP edge, auth, request parsing, the cache lookup and the
 * response presentation cost per request once a page is in the response cache. Trawl runs as a real
 * `bun server/main.ts` process (SQLite file storage); the named baseline, in the same run and with
 * the same clients, is a bare Bun.serve process that parses the same JSON body and answers the same
 * stored JSON: the floor any server on this runtime pays. `--compare DIR` also runs the Trawl of
 * another checkout (say, the commit before a refactor) in the same rounds, so before/after is one run.
 *
 *   bun run bench scrape-cached [--seconds 5] [--clients 16] [--urls 20] [--rounds 3] [--compare DIR]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { firstMatch, rssMb } from './processes.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    seconds: { type: 'string', default: '5' },
    clients: { type: 'string', default: '16' },
    urls: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    compare: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench/results/scrape-cached.json') },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const URLS = Number(args.urls);

/** The fixture pages: one article each, distinct so every URL is its own cache row. */
function startSite() {
  const page = (i: number) =>
    `<!doctype html><html lang="en"><head><title>Article ${i}</title><meta name="description" content="Story ${i}"></head><body>` +
    `<nav><a href="/">Home</a></nav><article><h1>Article ${i}</h1>${'<p>Some paragraph text that reads like prose, with a <a href="/x">link</a>.</p>'.repeat(30)}</article></body></html>`;
  return Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => new Response(page(Number(new URL(req.url).pathname.slice(1)) || 0), { headers: { 'content-type': 'text/html; charset=utf-8' } }) });
}

interface Server { name: string; url: string; pid: number; stop(): Promise<void> }

async function startTrawl(name: string, root: string): Promise<Server> {
  const server = await startServerProcess({ root });
  return { name, url: server.url, pid: server.pid, stop: () => server.stop() };
}

/** The baseline: parse the body, look the answer up in a map, send it. */
async function startBare(answers: Record<string, unknown>): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-bare-'));
  const file = join(dir, 'bare.ts');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
  writeFileSync(file, `
const answers = await Bun.file(${JSON.stringify(join(dir, 'answers.json'))}).json();
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, async fetch(req) {
  const body = await req.json();
  const answer = answers[body.url];
  return answer ? Response.json(answer, { headers: { 'x-trawl-cache': 'hit' } }) : Response.json({ error: 'Not found' }, { status: 404 });
} });
console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.port }));
`);
  const proc = Bun.spawn(['bun', file], { stdout: 'pipe', stderr: 'inherit' });
  const url = await firstMatch(proc, (line) => (line.startsWith('{') ? (JSON.parse(line).url as string) : undefined));
  return { name: 'bare Bun.serve', url, pid: proc.pid, stop: async () => { proc.kill('SIGTERM'); await proc.exited; rmSync(dir, { recursive: true, force: true }); } };
}

const body = (url: string) => JSON.stringify({ url, formats: ['markdown', 'links'], only_main_content: true });

async function scrape(server: Server, url: string): Promise<Response> {
  return fetch(`${server.url}/v1/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(url) });
}

interface Load { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number; misses: number; peakRssMb: number }

async function load(server: Server, urls: string[]): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  let misses = 0;
  let peak = rssMb(server.pid);
  const until = performance.now() + SECONDS * 1000;
  const client = async (offset: number) => {
    for (let i = offset; performance.now() < until; i += CLIENTS) {
      const started = performance.now();
      const response = await scrape(server, urls[i % urls.length]!);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) errors++;
      else if (response.headers.get('x-trawl-cache') !== 'hit') misses++;
    }
  };
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(server.pid)); }, 100);
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 100) / 100;
  return { requestsPerSecond: Math.round(latencies.length / SECONDS), p50Ms: at(0.5), p99Ms: at(0.99), errors, misses, peakRssMb: Math.round(peak) };
}

const site = startSite();
const urls = Array.from({ length: URLS }, (_, i) => `http://127.0.0.1:${site.port}/${i}`);
const servers: Server[] = [await startTrawl('trawl', ROOT)];
if (args.compare) servers.push(await startTrawl(`trawl (${args.compare})`, args.compare));
// Warm every Trawl's cache, and collect the answers the baseline will serve.
const answers: Record<string, unknown> = {};
for (const server of servers) {
  for (const url of urls) {
    const response = await scrape(server, url);
    if (response.status !== 200) throw new Error(`${server.name}: warm-up scrape answered ${response.status}: ${await response.text()}`);
    answers[url] = await response.json();
  }
}
servers.push(await startBare(answers));

const rounds: Record<string, Load>[] = [];
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const results: Record<string, Load> = {};
    for (const server of servers) results[server.name] = await load(server, urls);
    rounds.push(results);
    console.log(`round ${round + 1}: ${Object.entries(results).map(([name, r]) => `${name} ${r.requestsPerSecond}/s (p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, misses ${r.misses})`).join('; ')}`);
  }
} finally {
  for (const server of servers) await server.stop();
  site.stop(true);
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const baseline = servers.at(-1)!.name;
const summary = Object.fromEntries(servers.map((server) => [server.name, {
  medianRequestsPerSecond: median(rounds.map((r) => r[server.name]!.requestsPerSecond)),
  medianRatioToBaseline: Math.round(median(rounds.map((r) => r[server.name]!.requestsPerSecond / r[baseline]!.requestsPerSecond)) * 1000) / 1000,
  medianP99Ms: median(rounds.map((r) => r[server.name]!.p99Ms)),
  errors: rounds.reduce((n, r) => n + r[server.name]!.errors, 0),
  peakRssMb: Math.max(...rounds.map((r) => r[server.name]!.peakRssMb)),
}]));
console.log(JSON.stringify(summary, null, 2));
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(args.out!, JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, clients: CLIENTS, urls: URLS, baseline, rounds, summary }, null, 2) + '\n');
