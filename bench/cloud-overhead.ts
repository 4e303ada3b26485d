#!/usr/bin/env bun
/**
 * What cloud mode costs a request: cached-scrape throughput of the same Trawl in self-hosted mode
 * (the baseline: one configured key, remembered) and in cloud mode (on every request the key and the
 * plan checked, the request counted against the rate limit, a credit charged and a usage row
 * written), side by side in the same rounds with the same clients — the two servers take turns
 * second by second, so both meet the same load from the rest of the machine — on SQLite and on
 * Postgres (when one answers: `--postgres URL`, else TEST_DATABASE_URL, else the local one).
 * Target: cloud mode at least 70% of self-hosted on each database. Each load also reports the
 * server process's CPU time per request, which shows the overhead even when the clients set the pace
 * (the database server's own CPU is not in it).
 *
 *   bun run bench cloud-overhead [--seconds 5] [--clients 16] [--urls 20] [--rounds 3] [--postgres URL | --no-postgres] [--no-sqlite]
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { postgresProcessDatabase, sqliteProcessDatabase, type ProcessDatabase } from '../test/helpers/databases.ts';
import { startServerProcess, type ServerProcess } from '../test/helpers/server-process.ts';
import { median } from './stats.ts';
import { runInterleaved, startArticleSite, type Load } from './cached-load.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    seconds: { type: 'string', default: '5' },
    clients: { type: 'string', default: '16' },
    urls: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    postgres: { type: 'string' },
    'no-postgres': { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'bench/results/cloud-overhead.json') },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const URLS = Number(args.urls);
const ADMIN_KEY = `bench-admin-${crypto.randomUUID()}`;
const SELF_KEY = `bench-self-${crypto.randomUUID()}`;

interface Target {
  name: string;
  server: ServerProcess;
  key: string;
}

const body = (url: string) => JSON.stringify({ url, formats: ['markdown', 'links'], only_main_content: true });
const scrape = (target: Target, url: string) =>
  fetch(`${target.server.url}/v1/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.key}` },
    body: body(url),
  });

/** Both modes under the same load, taking turns second by second (bench/cached-load.ts). */
const load = (targets: Target[], urls: string[]): Promise<Record<string, Load>> =>
  runInterleaved(
    targets.map((target) => ({ name: target.name, pid: target.server.pid, send: (i: number) => scrape(target, urls[i % urls.length]!) })),
    { seconds: SECONDS, clients: CLIENTS },
  );

/** A fresh database per server: a temporary SQLite folder, or a Postgres schema of its own. */
const database = (postgres: string | undefined): Promise<ProcessDatabase> =>
  postgres ? postgresProcessDatabase(postgres) : Promise.resolve(sqliteProcessDatabase());

async function adminCall(server: ServerProcess, path: string, payload: unknown): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify(payload),
  });
  if (response.status !== 201 && response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function startPair(postgres: string | undefined): Promise<{ targets: Target[]; stop(): Promise<void> }> {
  const dbs = [await database(postgres), await database(postgres)];
  const servers: ServerProcess[] = [];
  const stop = async () => {
    for (const server of servers) await server.stop();
    for (const db of dbs) await db.cleanup();
  };
  try {
    servers.push(await startServerProcess({ env: { ...dbs[0]!.env, TRAWL_API_KEY: SELF_KEY } }));
    servers.push(await startServerProcess({ env: { ...dbs[1]!.env, TRAWL_MODE: 'cloud', TRAWL_ADMIN_KEY: ADMIN_KEY } }));
    const [self, cloud] = servers as [ServerProcess, ServerProcess];
    // As much credit and headroom as a workspace can have: every request is charged, counted and logged, none refused.
    const workspace = await adminCall(cloud, '/admin/workspaces', {
      name: 'bench',
      plan: 'scale',
      credits: 1_000_000_000_000,
      rate_limit: 1_000_000,
    });
    const { key } = await adminCall(cloud, `/admin/workspaces/${workspace.id}/keys`, { name: 'bench' });
    return {
      targets: [
        { name: 'self-hosted', server: self, key: SELF_KEY },
        { name: 'cloud', server: cloud, key },
      ],
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function postgresUrl(): Promise<string | undefined> {
  if (args['no-postgres']) return undefined;
  const url = args.postgres ?? (process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
  try {
    await (await postgresProcessDatabase(url, [])).cleanup();
    return url;
  } catch (err) {
    console.log(`No Postgres at ${url.replace(/\/\/[^@]*@/, '//')} (${(err as Error).message}): SQLite only`);
    return undefined;
  }
}

const site = startArticleSite();
const urls = Array.from({ length: URLS }, (_, i) => `http://127.0.0.1:${site.port}/${i}`);
const results: Record<string, unknown> = {};
const postgres = await postgresUrl();
try {
  for (const [dialect, url] of [
    ...(args['no-sqlite'] ? [] : [['sqlite', undefined]]),
    ...(postgres ? [['postgres', postgres]] : []),
  ] as Array<[string, string | undefined]>) {
    const pair = await startPair(url);
    const rounds: Record<string, Load>[] = [];
    try {
      for (const target of pair.targets) {
        for (const page of urls) {
          const response = await scrape(target, page);
          if (response.status !== 200)
            throw new Error(`${target.name}: warm-up scrape answered ${response.status}: ${await response.text()}`);
        }
      }
      for (let round = 0; round < Number(args.rounds); round++) {
        // Alternate who goes first, so neither always runs on a machine warmed (or tired) by the other.
        const loads = await load(round % 2 === 0 ? pair.targets : pair.targets.toReversed(), urls);
        rounds.push(loads);
        const ratio = loads.cloud!.requestsPerSecond / loads['self-hosted']!.requestsPerSecond;
        console.log(
          `${dialect} round ${round + 1}: ${Object.entries(loads)
            .map(
              ([name, r]) =>
                `${name} ${r.requestsPerSecond}/s (p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, server CPU ${r.serverCpuUsPerRequest} µs/request, errors ${r.errors}, misses ${r.misses})`,
            )
            .join('; ')}; cloud/self-hosted ${ratio.toFixed(3)}`,
        );
      }
    } finally {
      await pair.stop();
    }
    const ratio = median(rounds.map((r) => r.cloud!.requestsPerSecond / r['self-hosted']!.requestsPerSecond));
    results[dialect] = {
      selfHostedMedianRequestsPerSecond: median(rounds.map((r) => r['self-hosted']!.requestsPerSecond)),
      cloudMedianRequestsPerSecond: median(rounds.map((r) => r.cloud!.requestsPerSecond)),
      medianRatio: Math.round(ratio * 1000) / 1000,
      selfHostedMedianServerCpuUsPerRequest: median(rounds.map((r) => r['self-hosted']!.serverCpuUsPerRequest)),
      cloudMedianServerCpuUsPerRequest: median(rounds.map((r) => r.cloud!.serverCpuUsPerRequest)),
      target: 0.7,
      met: ratio >= 0.7,
      errors: rounds.reduce((n, r) => n + r.cloud!.errors + r['self-hosted']!.errors, 0),
      rounds,
    };
  }
} finally {
  site.stop(true);
}

const summary = Object.fromEntries(
  Object.entries(results).map(([dialect, r]) => {
    const { rounds: _rounds, ...rest } = r as Record<string, unknown>;
    return [dialect, rest];
  }),
);
console.log(JSON.stringify(summary, null, 2));
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  `${JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, clients: CLIENTS, urls: URLS, baseline: 'self-hosted', results }, null, 2)}\n`,
);
