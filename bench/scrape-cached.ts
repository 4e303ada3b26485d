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
import { firstMatch } from './processes.ts';
import { median } from './stats.ts';
import { runLoad, startArticleSite, type Load } from './cached-load.ts';
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

interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

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
  writeFileSync(
    file,
    `
const answers = await Bun.file(${JSON.stringify(join(dir, 'answers.json'))}).json();
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, async fetch(req) {
  const body = await req.json();
  const answer = answers[body.url];
  return answer ? Response.json(answer, { headers: { 'x-trawl-cache': 'hit' } }) : Response.json({ error: 'Not found' }, { status: 404 });
} });
console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.port }));
`,
  );
  const proc = Bun.spawn(['bun', file], { stdout: 'pipe', stderr: 'inherit' });
  const url = await firstMatch(proc, (line) => (line.startsWith('{') ? (JSON.parse(line).url as string) : undefined));
  return {
    name: 'bare Bun.serve',
    url,
    pid: proc.pid,
    stop: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const body = (url: string) => JSON.stringify({ url, formats: ['markdown', 'links'], only_main_content: true });

async function scrape(server: Server, url: string): Promise<Response> {
  return fetch(`${server.url}/v1/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(url) });
}

const load = (server: Server, urls: string[]): Promise<Load> =>
  runLoad({ seconds: SECONDS, clients: CLIENTS, pid: server.pid, send: (i) => scrape(server, urls[i % urls.length]!) });

const site = startArticleSite();
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
    console.log(
      `round ${round + 1}: ${Object.entries(results)
        .map(
          ([name, r]) => `${name} ${r.requestsPerSecond}/s (p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, misses ${r.misses})`,
        )
        .join('; ')}`,
    );
  }
} finally {
  for (const server of servers) await server.stop();
  site.stop(true);
}

const baseline = servers.at(-1)!.name;
const summary = Object.fromEntries(
  servers.map((server) => [
    server.name,
    {
      medianRequestsPerSecond: median(rounds.map((r) => r[server.name]!.requestsPerSecond)),
      medianRatioToBaseline:
        Math.round(median(rounds.map((r) => r[server.name]!.requestsPerSecond / r[baseline]!.requestsPerSecond)) * 1000) / 1000,
      medianP99Ms: median(rounds.map((r) => r[server.name]!.p99Ms)),
      errors: rounds.reduce((n, r) => n + r[server.name]!.errors, 0),
      peakRssMb: Math.max(...rounds.map((r) => r[server.name]!.peakRssMb)),
    },
  ]),
);
console.log(JSON.stringify(summary, null, 2));
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  `${JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, clients: CLIENTS, urls: URLS, baseline, rounds, summary }, null, 2)}\n`,
);
