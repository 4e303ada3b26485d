#!/usr/bin/env bun
/**
 * The watch schedule at scale: 10,000 watches whose slots all come due within one minute, checked
 * by two Trawl processes sharing one Postgres (each ticks the shared schedule and runs checks),
 * against a fixture site on 127.0.0.1. Reports the time until every watch is checked, lag from due
 * time to check (p50/p99/max), and proof that no slot was checked twice (snapshots per slot, and
 * fetches per page).
 *
 * Every watch has its filters and conditions on — include_selectors, ignore_text, trigger_text,
 * block_text, only_new_lines, changes "added", a price condition (below and change_percent) and
 * restock — so each check also fetches the raw HTML, parses it for the price and the JSON-LD
 * offer, and keeps its seen-lines memory; `--plain` seeds watches without them.
 *
 * Baseline, in the same run and the same two processes: plain `/v1/scrape` calls (`no_cache`,
 * main content as markdown, the check's scrape) at the same concurrency. The per-check overhead
 * beyond the scrape is the difference in wall time per item at full load and in CPU time of the
 * two processes per item (schedule claims, job bookkeeping, the comparison, snapshot writes).
 *
 *   bun run bench watches [--watches 10000] [--scrapes 2000] [--concurrency 16] [--plain] [--out FILE]
 *
 * Needs Postgres: DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test
 * (a throwaway schema is created and dropped).
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { packContent } from '../core/features/watch/records.ts';
import type { WatchTables } from '../core/features/watch/tables.ts';
import { postgresProcessDatabase } from '../test/helpers/databases.ts';
import { claimTestRun } from '../test/helpers/test-run.ts';
import { spawnTrawl, type TrawlProcess } from '../test/helpers/trawl-process.ts';
import { cpuMs } from './processes.ts';
import { quantile } from './stats.ts';

const ROOT = join(import.meta.dir, '..');
const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    watches: { type: 'string', default: '10000' },
    scrapes: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    plain: { type: 'boolean', default: false },
    out: { type: 'string', default: join(ROOT, 'bench/results/watches.json') },
  },
});
const WATCHES = Number(args.watches);
const SCRAPES = Number(args.scrapes);
const CONCURRENCY = Number(args.concurrency);
const DUE_WINDOW_MS = 60_000;
const DATABASE = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const FILTERED = !args.plain;
const paragraph = (i: number) =>
  `Harbour bulletin paragraph ${i}: ferries, tides and the fish market keep the town busy from dawn until the evening bell.`;
/**
 * Every page reads the same, except that every tenth has a revised edition line and a lower price:
 * 10 % of checks find a change, and with the filters on those notify (the price condition). Each
 * page shows its fetch time, a view counter and a sold-out box that goes with the JSON-LD offer.
 */
const article = (n: number) => {
  const revised = n % 10 === 0;
  const offer = `{"@context":"https://schema.org","@type":"Product","name":"Tide table","offers":{"@type":"Offer","price":"${revised ? '9.50' : '12.00'}","availability":"https://schema.org/InStock"}}`;
  return `<!doctype html><html><head><title>Bulletin</title><script type="application/ld+json">${offer}</script></head><body><nav><a href="/">Home</a></nav>
<main><article><h1>Bulletin</h1>${Array.from({ length: 12 }, (_, i) => `<p>${paragraph(i)}</p>`).join('')}
<p>Updated ${new Date().toISOString().slice(11, 16)} UTC · ${1000 + n} views</p>
<p>Tide table: <span class="price">${revised ? '9.50' : '12.00'} EUR</span></p>
<p>Edition ${revised ? 'revised' : 'first'}. <a href="/more">More</a></p></article></main></body></html>`;
};
/** The watches' filters and conditions (columns as stored). */
const filters = FILTERED
  ? {
      include_selectors: '["article"]',
      ignore_text: '["advert*"]',
      trigger_text: '["bulletin"]',
      block_text: '["closed for maintenance"]',
      only_new_lines: 1,
      changes: 'added',
      conditions: '[{"selector":".price","below":10,"change_percent":5}]',
      restock: 1,
    }
  : {
      include_selectors: '[]',
      ignore_text: '[]',
      trigger_text: '[]',
      block_text: '[]',
      only_new_lines: 0,
      changes: 'any',
      conditions: '[]',
      restock: 0,
    };

const fetchesPerPath = new Map<string, number>();
const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    fetchesPerPath.set(path, (fetchesPerPath.get(path) ?? 0) + 1);
    return new Response(article(Number(path.split('/').pop()) || 0), { headers: { 'content-type': 'text/html; charset=utf-8' } });
  },
});
const pageUrl = (kind: 'w' | 's', n: number) => `http://127.0.0.1:${site.port}/${kind}/${n}`;

// Hold this run's lock first: test runs on the same Postgres sweep the schemas of runs without one.
await claimTestRun(DATABASE);
const target = await postgresProcessDatabase(DATABASE);
const db = target.storage.db.withTables<WatchTables>();
const env = {
  ...target.env,
  TRAWL_WATCH_CONCURRENCY: String(CONCURRENCY),
  TRAWL_WATCH_MAX_PER_WORKSPACE: String(WATCHES),
  TRAWL_JOBS_SCHEDULE_TICK_SECONDS: '1',
};
const processes: TrawlProcess[] = [spawnTrawl('all', env), spawnTrawl('all', env)];
const cpuOfProcesses = () => processes.reduce((sum, p) => sum + cpuMs(p.proc.pid).total, 0);

try {
  const urls = await Promise.all(processes.map((p) => p.url));
  console.log(`two Trawl processes on Postgres (${urls.join(', ')}); fixture site on port ${site.port}`);

  // Baseline: the check's scrape on its own, through both processes at the same concurrency.
  let next = 0;
  const scrapeLoop = async (api: string) => {
    while (next < SCRAPES) {
      const n = next++;
      const res = await fetch(`${api}/v1/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: pageUrl('s', n), formats: ['markdown'], only_main_content: true, no_cache: true }),
      });
      if (res.status !== 200) throw new Error(`scrape answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  // Warm-up: compile the scrape path in both processes before measuring.
  next = SCRAPES - Math.min(SCRAPES, 200);
  await Promise.all(urls.flatMap((api) => Array.from({ length: CONCURRENCY }, () => scrapeLoop(api))));
  next = 0;
  const scrapeCpu0 = cpuOfProcesses();
  const scrapeStart = performance.now();
  await Promise.all(urls.flatMap((api) => Array.from({ length: CONCURRENCY }, () => scrapeLoop(api))));
  const scrapeSeconds = (performance.now() - scrapeStart) / 1000;
  const scrapeCpuMs = (cpuOfProcesses() - scrapeCpu0) / SCRAPES;
  console.log(
    `baseline: ${SCRAPES} scrapes in ${scrapeSeconds.toFixed(1)} s (${(SCRAPES / scrapeSeconds).toFixed(1)}/s), ${scrapeCpuMs.toFixed(1)} ms CPU each`,
  );

  // 10,000 watches with a previous snapshot each, due evenly over one minute from a few seconds on.
  const firstDue = Date.now() + 5_000;
  const created = new Date().toISOString();
  // The previous snapshot of every watch: what a check of an unrevised page reads.
  const seedRequest = FILTERED ? { include_selectors: ['article'], only_main_content: false } : { only_main_content: true };
  const unrevised = (await (
    await fetch(`${urls[0]}/v1/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl('s', 1), no_cache: true, ...seedRequest }),
    })
  ).json()) as { markdown: string };
  const seeded = packContent(unrevised.markdown);
  const observed = FILTERED ? JSON.stringify({ values: [12], stock: 'in' }) : null;
  for (let i = 0; i < WATCHES; i += 500) {
    const ids = Array.from({ length: Math.min(500, WATCHES - i) }, (_, j) => ({ n: i + j, id: crypto.randomUUID() }));
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('watches')
        .values(
          ids.map(({ n, id }) => ({
            id,
            workspace_id: 'default',
            url: pageUrl('w', n),
            name: `bulletin ${n}`,
            interval_minutes: 1440,
            webhook_url: null,
            active: 1,
            ignore_selectors: '[]',
            ignore_patterns: '["clock","relative_time","counters","tokens"]',
            ...filters,
            tags: '["bench"]',
            notify: '[]',
            seen_lines: '[]',
            last_state: 'new',
            last_checked_at: created,
            last_changed_at: null,
            last_error: null,
            created_at: created,
            updated_at: created,
          })),
        )
        .execute();
      await trx
        .insertInto('watch_snapshots')
        .values(
          ids.map(({ id }) => ({
            id: crypto.randomUUID(),
            watch_id: id,
            workspace_id: 'default',
            content_hash: 'seed',
            word_count: 230,
            status: 'initial',
            title: 'Bulletin',
            diff_summary: null,
            word_count_delta: 0,
            links_added: 0,
            links_removed: 0,
            notified: 0,
            reason: null,
            excerpt: null,
            observed,
            content: seeded,
            due_at: null,
            checked_at: created,
          })),
        )
        .execute();
      await trx
        .insertInto('schedules')
        .values(
          ids.map(({ n, id }) => ({
            kind: 'watch.check',
            subject_id: id,
            workspace_id: 'default',
            interval_seconds: 86_400,
            next_due_at: new Date(firstDue + Math.floor((n / WATCHES) * DUE_WINDOW_MS)).toISOString(),
            active: 1,
            last_enqueued_at: null,
            created_at: created,
          })),
        )
        .execute();
    });
  }
  console.log(`seeded ${WATCHES} watches due from ${new Date(firstDue).toISOString()} over ${DUE_WINDOW_MS / 1000} s`);

  const watchCpu0 = cpuOfProcesses();
  const countChecked = async () =>
    Number(
      (
        await db
          .selectFrom('watch_snapshots')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('due_at', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  let checked = 0;
  for (let lastReport = 0; checked < WATCHES; await Bun.sleep(500)) {
    checked = await countChecked();
    if (Date.now() - lastReport > 10_000) {
      console.log(`  ${((Date.now() - firstDue) / 1000).toFixed(0)} s after the first due time: ${checked} checked`);
      lastReport = Date.now();
    }
    if (Date.now() - firstDue > 30 * 60_000) throw new Error(`only ${checked} of ${WATCHES} checked after 30 minutes`);
  }
  const watchCpuMs = (cpuOfProcesses() - watchCpu0) / WATCHES;
  await Bun.sleep(3000); // further ticks: a slot claimed twice would show up now

  const rows = await db
    .selectFrom('watch_snapshots')
    .select(['watch_id', 'due_at', 'checked_at', 'status', 'notified', 'reason'])
    .where('due_at', 'is not', null)
    .execute();
  const lags = rows.map((r) => Date.parse(r.checked_at) - Date.parse(r.due_at!)).sort((a, b) => a - b);
  const lastChecked = Math.max(...rows.map((r) => Date.parse(r.checked_at)));
  const slots = new Set(rows.map((r) => `${r.watch_id} ${r.due_at}`)).size;
  const watchPaths = [...fetchesPerPath].filter(([path]) => path.startsWith('/w/'));
  const fetchedTwice = watchPaths.filter(([, n]) => n > 1).length;
  const firstCheck = Math.min(...rows.map((r) => Date.parse(r.checked_at)));
  const checkSeconds = (lastChecked - firstCheck) / 1000;
  const perScrapeMs = (scrapeSeconds * 1000) / SCRAPES;
  const perCheckMs = (checkSeconds * 1000) / WATCHES;
  const summary = {
    watches: WATCHES,
    concurrencyPerProcess: CONCURRENCY,
    allCheckedSecondsAfterFirstDue: (lastChecked - firstDue) / 1000,
    allCheckedSecondsAfterLastDue: (lastChecked - firstDue - DUE_WINDOW_MS) / 1000,
    lagMs: { p50: quantile(lags, 0.5), p99: quantile(lags, 0.99), max: lags[lags.length - 1] },
    checks: rows.length,
    distinctSlots: slots,
    pagesFetchedTwice: fetchedTwice,
    filtersOn: FILTERED,
    statuses: Object.fromEntries(['same', 'changed', 'initial'].map((s) => [s, rows.filter((r) => r.status === s).length])),
    notified: rows.filter((r) => Number(r.notified) === 1).length,
    reasons: Object.fromEntries(
      [...new Set(rows.map((r) => r.reason ?? 'null'))].map((reason) => [
        reason,
        rows.filter((r) => (r.reason ?? 'null') === reason).length,
      ]),
    ),
    checksPerSecond: WATCHES / checkSeconds,
    baseline: { scrapes: SCRAPES, scrapesPerSecond: SCRAPES / scrapeSeconds, cpuMsPerScrape: scrapeCpuMs },
    wallMsPerItem: { check: perCheckMs, scrape: perScrapeMs, overhead: perCheckMs - perScrapeMs, ratio: perCheckMs / perScrapeMs },
    cpuMsPerItem: { check: watchCpuMs, scrape: scrapeCpuMs, overhead: watchCpuMs - scrapeCpuMs, ratio: watchCpuMs / scrapeCpuMs },
  };
  console.log(JSON.stringify(summary, null, 2));
  if (slots !== rows.length || rows.length !== WATCHES || fetchedTwice > 0) throw new Error('a slot was checked twice');
  mkdirSync(dirname(args.out!), { recursive: true });
  writeFileSync(args.out!, `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, summary }, null, 2)}\n`);
} finally {
  for (const p of processes) p.proc.kill('SIGTERM');
  await Promise.all(processes.map((p) => p.proc.exited));
  await site.stop(true);
  await target.cleanup();
}
