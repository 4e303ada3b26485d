#!/usr/bin/env bun
/**
 * Memory of one rendered huge page: a generated page of `--mb` megabytes (nested markup, the shape
 * that costs a renderer most) served on 127.0.0.1, scraped with `render: true` by a real server
 * process, while the resident memory of the server's whole process tree (Chromium included) is
 * sampled from /proc and `/health` is timed. Prints the tree's RSS before and at its peak, the
 * scrape's status and time, and the slowest `/health`.
 *
 *   bun run bench render-memory [--mb 20] [--root <checkout>] [--env KEY=VALUE …]
 *   (--root runs another checkout's server, for a before/after in the same run)
 */
import { parseArgs } from 'node:util';
import { hugePage } from '../test/helpers/huge-page.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import { envFromPairs } from './processes.ts';

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    mb: { type: 'string', default: '20' },
    root: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
  },
});

const page = hugePage(Number(args.mb));
const site = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(page, { headers: { 'content-type': 'text/html' } }) });
const env = envFromPairs(args.env!, '--env');
const server = await startServerProcess({ ...(args.root ? { root: args.root } : {}), env });
try {
  // Chromium starts on first use: a small page first, so the baseline includes an idle browser.
  await server
    .post('/v1/scrape', { url: `http://127.0.0.1:${site.port}/?warm`, formats: ['markdown'], render: true, timeout: 5000 })
    .catch(() => {});
  const before = server.treeRssMb();
  let peak = before;
  let slowestHealth = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, server.treeRssMb());
      const started = performance.now();
      await fetch(`${server.url}/health`).catch(() => {});
      slowestHealth = Math.max(slowestHealth, performance.now() - started);
      await Bun.sleep(100);
    }
  })();
  const started = performance.now();
  const answer = await server.post('/v1/scrape', {
    url: `http://127.0.0.1:${site.port}/`,
    formats: ['markdown'],
    render: true,
    timeout: 60_000,
  });
  const seconds = (performance.now() - started) / 1000;
  const body = (await answer.json()) as { error?: string };
  done = true;
  await sampler;
  console.log(
    JSON.stringify({
      pageMb: Math.round((page.length / 2 ** 20) * 10) / 10,
      status: answer.status,
      error: body.error ?? null,
      seconds: Math.round(seconds * 10) / 10,
      treeRssBeforeMb: Math.round(before),
      treeRssPeakMb: Math.round(peak),
      slowestHealthMs: Math.round(slowestHealth),
    }),
  );
} finally {
  await server.stop();
  site.stop(true);
}
