#!/usr/bin/env bun
/**
 * What a page costs in a content worker against on the calling thread, without HTTP: dev-set
 * pages (markdown of the main content) go through the content stages in-process (ContentRunner
 * without a pool) and through a real content pool, in alternating rounds in one process, so a
 * shared machine's load swings hit both alike. Reported per page, from /proc: CPU of the calling
 * thread, of the workers, of JavaScriptCore's JIT and GC helpers, and wall time. The pool is kept
 * busy (twice as many pages in flight as workers), as under load.
 *
 * The difference between the calling thread's CPU in-process and the workers' CPU (plus the
 * calling thread's share) in the pool is what moving the work to workers costs per page: cloning
 * the input and output, the worker's own heap and JIT, and the threads sharing the cores.
 *
 *   bun run bench content-workers [--pages 150] [--rounds 8] [--size 2] [--out FILE]
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { builtinPlugins } from '../plugins/index.ts';
import { testConfig, testRequest } from '../test/helpers/plugin-context.ts';
import { ContentRunner, createContentPool } from '../core/content-runner.ts';
import { CONTENT_KINDS } from '../core/content-task.ts';
import { FETCHER_ID } from '../core/data-bag.ts';
import { PageDocument } from '../core/document.ts';
import { createJob } from '../core/job.ts';
import { PluginRegistry } from '../core/registry.ts';
import { loadHtml, loadTruth, REPO_ROOT, selectIds } from './extraction-data.ts';
import { cpuMs } from './processes.ts';
import { median } from './stats.ts';

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pages: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '8' },
    size: { type: 'string', default: '2' },
    out: { type: 'string', default: join(REPO_ROOT, 'bench/results/content-workers.json') },
  },
});
const ROUNDS = Number(args.rounds);
const SIZE = Number(args.size);

const logger = pino({ level: 'silent' });
const config = testConfig({ workers: { size: SIZE, maxRssMb: 0 } });
const registry = new PluginRegistry(builtinPlugins, config);
await registry.setup(
  () => ({
    logger,
    config,
    resolve: () => {
      throw new Error('no services here');
    },
  }),
  CONTENT_KINDS,
);
const plugins = { module: new URL('../plugins/index.ts', import.meta.url).href, name: 'builtinPlugins' };
const pool = createContentPool(config, plugins);
await pool.prestart();
const runners = { thread: new ContentRunner(registry, logger), pool: new ContentRunner(registry, logger, { pool, config }) };

const pages = selectIds(loadTruth(), { limit: Number(args.pages) }).map((id) => loadHtml(id));
const request = testRequest({ url: 'https://example.com/page', formats: ['markdown'], onlyMainContent: true });

function documentFor(html: string): PageDocument {
  const doc = new PageDocument(createJob(request, 'default', new AbortController().signal, Date.now() + 60_000));
  doc.response = {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: new TextEncoder().encode(html),
    finalUrl: request.url,
    mediaType: 'text/html',
    text: html,
    charset: 'utf-8',
  };
  doc.data.set(FETCHER_ID, 'fetcher.http');
  return doc;
}

type Mode = keyof typeof runners;
type PerPage = Record<'wallMs' | 'main' | 'workers' | 'jit' | 'gc' | 'total', number>;

/** Every page once through `mode`, with `inFlight` pages at a time. */
async function round(mode: Mode): Promise<PerPage> {
  const inFlight = mode === 'pool' ? 2 * SIZE : 1;
  const before = cpuMs(process.pid);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < pages.length) await runners[mode].run(documentFor(pages[next++]!), true);
    }),
  );
  const after = cpuMs(process.pid);
  const per = (ms: number) => Math.round((ms / pages.length) * 100) / 100;
  return {
    wallMs: per(performance.now() - started),
    main: per(after.main - before.main),
    workers: per(after.workers - before.workers),
    jit: per(after.jit - before.jit),
    gc: per(after.gc - before.gc),
    total: per(after.total - before.total),
  };
}

// The first two rounds warm the JIT of both and are not counted.
const results: Record<Mode, PerPage[]> = { thread: [], pool: [] };
for (let i = 0; i < ROUNDS + 2; i++) {
  for (const mode of i % 2 ? (['pool', 'thread'] as const) : (['thread', 'pool'] as const)) {
    const r = await round(mode);
    if (i >= 2) results[mode].push(r);
    console.log(`round ${i + 1}${i < 2 ? ' (warm-up)' : ''} ${mode}: ${JSON.stringify(r)}`);
  }
}
pool.close();

const summarise = (rows: PerPage[]) =>
  Object.fromEntries(
    Object.keys(rows[0]!).map((k) => [
      k,
      { median: median(rows.map((r) => r[k as keyof PerPage])), min: Math.min(...rows.map((r) => r[k as keyof PerPage])) },
    ]),
  );
const summary = { thread: summarise(results.thread), pool: summarise(results.pool) };
// CPU a page costs where it runs: on the calling thread in-process; in the workers plus what the calling thread still does in the pool.
const cost = (mode: Mode, pick: 'median' | 'min') =>
  mode === 'thread' ? summary.thread.main![pick] : summary.pool.workers![pick] + summary.pool.main![pick];
console.log(
  `CPU ms per page (median / min of ${ROUNDS} rounds): in-process ${cost('thread', 'median')} / ${cost('thread', 'min')}, ` +
    `pool of ${SIZE} ${cost('pool', 'median')} / ${cost('pool', 'min')} (workers ${summary.pool.workers!.median}, calling thread ${summary.pool.main!.median}); ` +
    `JIT ${summary.thread.jit!.median} vs ${summary.pool.jit!.median}`,
);
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, pages: pages.length, rounds: ROUNDS, size: SIZE, summary, results }, null, 2)}\n`,
);
console.log(`written ${args.out}`);
