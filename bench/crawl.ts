#!/usr/bin/env bun
/**
 * Crawl benchmark: the generated fixture site (bench/crawl-site.ts, its own process) crawled by
 * Trawl — a real `bun server/main.ts` process, SQLite file storage, markdown output, results stored
 * — and, in the same run with the same concurrency, by Crawlee's CheerioCrawler
 * (bench/crawl-crawlee.ts, markdown via turndown into its on-disk dataset). Rounds alternate the
 * two so machine load hits both alike; pages per second of each, the ratio within each round, and
 * the median of those ratios are reported (a shared machine's load swings between rounds). Then
 * Trawl crawls a 10,000-page site while its RSS is sampled from /proc: the peak, and the RSS at
 * each quarter of the crawl (flat, not growing with the crawl).
 *
 *   bun run bench crawl [--pages 2000] [--concurrency 8] [--rounds 3] [--rss-pages 10000] [--no-rss] [--env KEY=VALUE]…
 *   (--env sets the server's environment, e.g. --env TRAWL_WORKERS_SIZE=2 to try another setting)
 *   (--rounds 0 measures only the memory crawl)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { envFromPairs, firstMatch, rssMb } from './processes.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    'rss-pages': { type: 'string', default: '10000' },
    'no-rss': { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
    out: { type: 'string', default: join(ROOT, 'bench/results/crawl.json') },
  },
});
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);
const HOST = 'a.site.test';

async function startSite(pages: number) {
  const proc = Bun.spawn(['bun', join(ROOT, 'bench/crawl-site.ts'), '--pages', String(pages)], { stdout: 'pipe', stderr: 'inherit' });
  const port = await firstMatch(proc, (line) => (line.startsWith('{') ? (JSON.parse(line).port as number) : undefined));
  return {
    port,
    stop: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

interface TrawlRun {
  pages: number;
  seconds: number;
  peakRssMb: number;
  /** RSS when the crawl was 25, 50, 75 and 100 % done. */
  rssAtQuarterMb: number[];
}

async function crawlWithTrawl(port: number, pages: number): Promise<TrawlRun> {
  const server = await startServerProcess({
    env: {
      TRAWL_FETCH_RESOLVE: JSON.stringify({ [HOST]: '127.0.0.1' }),
      TRAWL_CRAWL_CONCURRENCY: String(CONCURRENCY),
      TRAWL_CRAWL_PER_HOST_CONCURRENCY: String(CONCURRENCY),
      TRAWL_CRAWL_MAX_PAGES_LIMIT: String(Math.max(pages, 10_000)),
      ...envFromPairs(args.env, '--env'),
    },
  });
  try {
    const api = server.url;
    let peak = rssMb(server.pid);
    const quarters: number[] = [];
    const started = performance.now();
    const created = await server.post('/v1/crawl', {
      url: `http://${HOST}:${port}/`,
      max_pages: pages,
      max_depth: 100,
      scrape_options: { formats: ['markdown'] },
    });
    if (created.status !== 202) throw new Error(`POST /v1/crawl answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    for (;;) {
      await Bun.sleep(100);
      peak = Math.max(peak, rssMb(server.pid));
      const summary = (await (await fetch(`${api}/v1/crawl/${id}?per_page=1`)).json()) as {
        status: string;
        completed: number;
        failed: number;
      };
      const done = summary.completed + summary.failed;
      while (quarters.length < 4 && done >= (pages * (quarters.length + 1)) / 4) quarters.push(Math.round(rssMb(server.pid)));
      if (summary.status !== 'queued' && summary.status !== 'scraping') {
        const seconds = (performance.now() - started) / 1000;
        if (summary.status !== 'completed') throw new Error(`crawl ended ${summary.status}`);
        return { pages: summary.completed, seconds, peakRssMb: Math.round(peak), rssAtQuarterMb: quarters };
      }
    }
  } finally {
    await server.stop();
  }
}

async function crawlWithCrawlee(port: number): Promise<{ pages: number; seconds: number }> {
  const storage = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  const proc = Bun.spawn(
    ['bun', join(ROOT, 'bench/crawl-crawlee.ts'), '--url', `http://127.0.0.1:${port}/`, '--concurrency', String(CONCURRENCY)],
    {
      cwd: storage,
      stdout: 'pipe',
      stderr: 'inherit',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', CRAWLEE_STORAGE_DIR: storage, CRAWLEE_LOG_LEVEL: 'ERROR' },
    },
  );
  try {
    return await firstMatch(proc, (line) => (line.startsWith('{"pages"') ? JSON.parse(line) : undefined));
  } finally {
    await proc.exited;
    rmSync(storage, { recursive: true, force: true });
  }
}

const perSecond = (run: { pages: number; seconds: number }) => Math.round((run.pages / run.seconds) * 10) / 10;
const ratioOf = (a: { pages: number; seconds: number }, b: { pages: number; seconds: number }) =>
  Math.round((perSecond(a) / perSecond(b)) * 100) / 100;

const site = Number(args.rounds) > 0 ? await startSite(PAGES) : { port: 0, stop: async () => {} };
const rounds: Array<{ trawl: TrawlRun; crawlee: { pages: number; seconds: number } }> = [];
try {
  for (let round = 1; round <= Number(args.rounds); round++) {
    const trawl = await crawlWithTrawl(site.port, PAGES);
    const crawlee = await crawlWithCrawlee(site.port);
    rounds.push({ trawl, crawlee });
    console.log(
      `round ${round}: Trawl ${trawl.pages} pages in ${trawl.seconds.toFixed(2)} s = ${perSecond(trawl)} pages/s; ` +
        `Crawlee ${crawlee.pages} pages in ${crawlee.seconds.toFixed(2)} s = ${perSecond(crawlee)} pages/s; ratio ${ratioOf(trawl, crawlee)}`,
    );
  }
} finally {
  await site.stop();
}

const bestTrawl = rounds.length ? Math.max(...rounds.map((r) => perSecond(r.trawl))) : null;
const bestCrawlee = rounds.length ? Math.max(...rounds.map((r) => perSecond(r.crawlee))) : null;
const ratios = rounds.map((r) => ratioOf(r.trawl, r.crawlee)).sort((a, b) => a - b);
const ratio = ratios.length ? ratios[Math.floor(ratios.length / 2)]! : null;
if (rounds.length) {
  console.log(
    `\n${PAGES} pages, concurrency ${CONCURRENCY}: best Trawl ${bestTrawl} pages/s, best Crawlee ${bestCrawlee} pages/s; ` +
      `ratio per round ${ratios.join(', ')}, median ${ratio} (target ≥ 1)`,
  );
}

let memory: (TrawlRun & { sitePages: number }) | null = null;
if (!args['no-rss']) {
  const rssPages = Number(args['rss-pages']);
  const big = await startSite(rssPages);
  try {
    memory = { sitePages: rssPages, ...(await crawlWithTrawl(big.port, rssPages)) };
  } finally {
    await big.stop();
  }
  console.log(
    `${rssPages}-page crawl: ${perSecond(memory)} pages/s, peak RSS ${memory.peakRssMb} MB (target ≤ 300), RSS at 25/50/75/100 %: ${memory.rssAtQuarterMb.join(' / ')} MB`,
  );
}

mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      bun: Bun.version,
      pages: PAGES,
      concurrency: CONCURRENCY,
      rounds: rounds.map((r) => ({
        trawl: { ...r.trawl, pagesPerSecond: perSecond(r.trawl) },
        crawlee: { ...r.crawlee, pagesPerSecond: perSecond(r.crawlee) },
        ratio: ratioOf(r.trawl, r.crawlee),
      })),
      trawlPagesPerSecond: bestTrawl,
      crawleePagesPerSecond: bestCrawlee,
      medianRatio: ratio,
      memory,
    },
    null,
    2,
  )}\n`,
);
console.log(`written ${args.out}`);
