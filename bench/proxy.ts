#!/usr/bin/env bun
/**
 * What an outbound proxy adds to a scrape: the same page scraped through /v1/scrape (no cache) over a
 * direct connection (the baseline) and through a local HTTP proxy and a local SOCKS5 proxy, both with
 * credentials, interleaved in one run so the machine's state is the same for all three. The proxies
 * are the test suite's (test/servers/forward-proxy.ts) and run in the bench process, not in Trawl's,
 * so what is measured is Trawl's client side plus one loopback hop.
 *
 *   bun run bench proxy [--scrapes 300] [--warmup 30]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median, quantile } from './stats.ts';
import { startArticleSite } from './cached-load.ts';
import { startHttpProxy, startSocksProxy } from '../test/servers/forward-proxy.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    scrapes: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '30' },
    out: { type: 'string', default: join(ROOT, 'bench/results/proxy.json') },
  },
});

const site = startArticleSite();
const http = await startHttpProxy({ auth: 'bench:bench-pass' });
const socks = await startSocksProxy({ auth: 'bench:bench-pass' });
const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-proxy-'));
const configFile = join(dir, 'proxies.toml');
writeFileSync(configFile, `[fetch.proxies.http]\nurls = ["${http.url}"]\n\n[fetch.proxies.socks]\nurls = ["${socks.url}"]\n`);
const server = await startServerProcess({ root: ROOT, env: { TRAWL_CONFIG: configFile } });

const routes = ['none', 'http', 'socks'] as const;
const times: Record<string, number[]> = { none: [], http: [], socks: [] };

async function scrape(route: string, i: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${site.port}/${i % 20}`, formats: ['markdown'], no_cache: true, proxy: route }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status}`);
  return performance.now() - started;
}

for (let i = 0; i < Number(args.warmup); i++) for (const route of routes) await scrape(route, i);
for (let i = 0; i < Number(args.scrapes); i++) {
  // A different order each round, so no route always runs right after another.
  for (const route of i % 2 ? routes : [...routes].reverse()) times[route]!.push(await scrape(route, i));
}

const row = (route: string) => ({
  route,
  medianMs: Number(median(times[route]!).toFixed(2)),
  p90Ms: Number(quantile(times[route]!, 0.9).toFixed(2)),
  addedMedianMs: Number((median(times[route]!) - median(times.none!)).toFixed(2)),
  ratio: Number((median(times[route]!) / median(times.none!)).toFixed(3)),
});
const rows = routes.map(row);
console.table(rows);
console.log(`proxied requests seen: http ${http.seen.length}, socks ${socks.seen.length}`);
writeFileSync(args.out!, JSON.stringify({ scrapes: Number(args.scrapes), baseline: 'direct (proxy: "none")', rows }, null, 2));
await server.stop();
await Promise.all([http.close(), socks.close(), site.stop()]);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
