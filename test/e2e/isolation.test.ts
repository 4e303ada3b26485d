/**
 * Isolation against a real server process (issue 11): a hostile page or file answers within its
 * `timeout` + 2 s, `/health` keeps answering (≥ 90 % of polls within 1 s) meanwhile, and the
 * server's process tree grows by less than 1 GB. A worker killed at a deadline answers at the
 * deadline and is replaced, and the next ordinary request succeeds. (Selector limits have their
 * own tests.) The slack past a deadline (2 s, 500 ms) and the health polls' 1 s are for a quiet
 * machine: each run scales them by the machine's load at that moment (test/helpers/load.ts), so a
 * shared machine at load 15 does not fail a server that keeps its deadlines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { loadFactor, stretched } from '../helpers/load.ts';
import { pollHealth, sampleTreeRss, startServerProcess, treeCpuMs, type ServerProcess } from '../helpers/server-process.ts';

const TIMEOUT_MS = 5000;
/** Past its `timeout` a hostile request must be answered within 2 s, as the issue allows (on a quiet machine). */
const GRACE_MS = 2000;
/** The smallest `timeout` a request may ask for. */
const SHORTEST_TIMEOUT_MS = 1000;
/** How late past the deadline a request cut at it may answer, on a quiet machine. */
const CUT_SLACK_MS = 500;

/** 2.5 million paragraphs: 20 MB, under the 20 MiB fetch cap. */
const hugePage = () => `<!doctype html><html><body>${'<p>x</p>'.repeat(2_500_000)}</body></html>`;
/** 2.6 MB of CSV: one header row of 300,000 columns and a few rows. */
const wideCsv = () =>
  Array.from({ length: 3 }, (_, row) => Array.from({ length: 300_000 }, (_, col) => (row === 0 ? `c${col}` : '1')).join(',')).join('\n');

let site: FixtureSite;
/** With a process memory budget the 20 MB page passes in about a second: the budget stops it. */
let budgeted: ServerProcess;
/** One worker, no queue, no memory budget: only the deadline stops the 20 MB page. */
let unbudgeted: ServerProcess;
/** Every limit at its default, as a self-hoster runs it. */
let defaults: ServerProcess;

beforeAll(async () => {
  site = startFixtureSite({
    '/huge': hugePage(),
    '/wide.csv': { body: wideCsv(), headers: { 'content-type': 'text/csv' } },
    '/slow': { body: '<p>Too late.</p>', delayMs: 30_000 },
    '/siblings': `<!doctype html><html><body>${'<p>x</p>'.repeat(20_000)}</body></html>`,
    '/ok':
      '<!doctype html><html><head><title>Fine</title></head><body><article><h1>Fine</h1><p>An ordinary page.</p></article></body></html>',
  });
  // The HTML element limit would cut the 20 MB page to a harmless size; these servers lift it, so
  // what stops the page is the mechanism under test (memory budget, deadline), not the parse limit.
  const unlimitedParse = { TRAWL_PLUGINS_DOCUMENT_HTML_MAX_ELEMENTS: '100000000' };
  [budgeted, unbudgeted, defaults] = await Promise.all([
    startServerProcess({ env: { ...unlimitedParse, TRAWL_WORKERS_MAX_RSS_MB: '900' } }),
    startServerProcess({
      env: { ...unlimitedParse, TRAWL_WORKERS_MAX_RSS_MB: '0', TRAWL_WORKERS_SIZE: '1', TRAWL_WORKERS_MAX_QUEUE: '0' },
    }),
    startServerProcess(),
  ]);
});
afterAll(async () => {
  await Promise.all([budgeted?.stop(), unbudgeted?.stop(), defaults?.stop()]);
  await site?.stop();
});

/** Sends a scrape (given up on once it is late: the test has failed by then) and reports how it went. */
async function send(
  server: ServerProcess,
  body: Record<string, unknown>,
  giveUpMs = 60_000,
): Promise<{ status: number; error?: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await server.post('/v1/scrape', body, { timeoutMs: giveUpMs });
    const answer = (await response.json()) as { error?: string };
    return { status: response.status, error: answer.error, ms: Math.round(performance.now() - started) };
  } catch {
    return { status: 0, error: 'no answer', ms: Math.round(performance.now() - started) };
  }
}

/**
 * Runs the scrapes while polling /health and sampling the tree's memory. `answerWithinMs`: by when
 * each must be answered, its `timeout` plus the grace, the grace (and the health polls' 1 s)
 * scaled by the load measured just before.
 */
async function underWatch(server: ServerProcess, ...bodies: Array<Record<string, unknown>>) {
  const factor = loadFactor();
  const answerWithinMs = Math.max(...bodies.map((body) => Number(body.timeout ?? TIMEOUT_MS))) + stretched(GRACE_MS, factor);
  const health = pollHealth(server.url, { answerWithinMs: stretched(1000, factor) });
  const memory = sampleTreeRss(server.pid);
  const answers = await Promise.all(bodies.map((body) => send(server, body, answerWithinMs + 500)));
  return { answers, health: await health.stop(), memory: memory.stop(), factor, answerWithinMs };
}

interface WorkerStats {
  workers: number;
  ready: number;
  completed: number;
  busy: number;
  replaced: number;
  failed: Record<string, number>;
}

async function workerStats(server: ServerProcess): Promise<WorkerStats> {
  return ((await (await fetch(`${server.url}/health`)).json()) as { workers: WorkerStats }).workers;
}

/** One assertion over every number, so a failure shows them all. */
function expectIsolated(run: Awaited<ReturnType<typeof underWatch>>, statuses: number[]) {
  const report = {
    answeredInTime: run.answers.every((a) => a.ms < run.answerWithinMs && statuses.includes(a.status)),
    healthy: run.health.fraction >= 0.9,
    grewUnder1GB: run.memory.growthMb < 1024,
    ...run,
  };
  expect(report).toMatchObject({ answeredInTime: true, healthy: true, grewUnder1GB: true });
}

const huge = (timeout: number) => ({ url: site.at('/huge'), formats: ['markdown'], timeout, no_cache: true });

describe('isolation: a hostile request cannot stall the server', () => {
  test('with the default limits, the 20 MB page is read up to its element limit: a 200, in bounded CPU time', async () => {
    // Reading 300,000 elements costs about 3 s of CPU; a loaded machine can stretch that past any
    // fixed deadline, so the deadline is far off and the bound is on the server's CPU time: the
    // element limit, not a deadline, ends the work (the whole page would take 23 s and 3.4 GB).
    const cpuBefore = treeCpuMs(defaults.pid);
    const run = await underWatch(defaults, huge(120_000));
    expectIsolated(run, [200]);
    expect(treeCpuMs(defaults.pid) - cpuBefore).toBeLessThan(15_000);
  }, 180_000);

  test('a 20 MB page of paragraphs', async () => {
    // Refused by parse limits, stopped by the memory budget or cut at the deadline (all 422): never a late 200.
    const run = await underWatch(budgeted, huge(TIMEOUT_MS));
    expectIsolated(run, [200, 422]);
  }, 60_000);

  test('ten costly selectors within the selector limits, at once: answered by their deadline, the server stays up', async () => {
    // Each paragraph is matched by walking its earlier siblings: quadratic on 20,000 siblings (a
    // `:has()` from a sibling, costlier still, is refused up front).
    const costly = { url: site.at('/siblings'), formats: ['markdown'], include_selectors: ['p ~ p ~ p'], timeout: 3000, no_cache: true };
    const run = await underWatch(defaults, ...Array.from({ length: 10 }, () => costly));
    expectIsolated(run, [200, 422]);
  }, 60_000);

  test('a CSV of 300,000 columns', async () => {
    expectIsolated(
      await underWatch(budgeted, { url: site.at('/wide.csv'), formats: ['markdown'], timeout: TIMEOUT_MS, no_cache: true }),
      [200, 422],
    );
  }, 60_000);

  test('two huge pages at once', async () => {
    expectIsolated(await underWatch(budgeted, huge(TIMEOUT_MS), huge(TIMEOUT_MS)), [200, 422]);
  }, 60_000);

  test('the memory budget stops the page with a 422 that names it', async () => {
    const failed = (await workerStats(budgeted)).failed.memory;
    // A deadline far off, so that on a loaded machine the budget, not the deadline, stops the page.
    const [answer] = (await underWatch(budgeted, huge(60_000))).answers;
    expect(answer).toMatchObject({ status: 422, error: expect.stringContaining('workers.maxRssMb') });
    expect((await workerStats(budgeted)).failed.memory).toBeGreaterThan(failed ?? 0);
  }, 120_000);
});

describe('one worker, no queue, no memory budget', () => {
  test('the server starts its worker at boot, not on the first page', async () => {
    let stats = await workerStats(unbudgeted);
    expect(stats.workers).toBe(1);
    // Booting it (importing and setting up the plugins) is its init, done before any page.
    while (stats.ready === 0) {
      await Bun.sleep(20);
      stats = await workerStats(unbudgeted);
    }
    expect(stats).toMatchObject({ busy: 0, completed: 0 });
  });

  test('a page still being processed at its deadline is answered at the deadline; its worker is replaced', async () => {
    const replaced = (await workerStats(unbudgeted)).replaced;
    const run = await underWatch(unbudgeted, huge(SHORTEST_TIMEOUT_MS));
    expect(run.answers[0]).toMatchObject({ status: 422, error: `Scrape timed out after ${SHORTEST_TIMEOUT_MS} ms` });
    expect(run.answers[0]!.ms).toBeLessThan(SHORTEST_TIMEOUT_MS + stretched(CUT_SLACK_MS, run.factor));
    expect(run.health.fraction).toBeGreaterThanOrEqual(0.9);
    expect((await workerStats(unbudgeted)).replaced).toBeGreaterThan(replaced);
  });

  test('a page that finds the worker busy and the queue full is a 503 with Retry-After', async () => {
    const busy = send(unbudgeted, huge(SHORTEST_TIMEOUT_MS));
    while ((await workerStats(unbudgeted)).busy === 0) await Bun.sleep(10); // until the huge page is in the worker
    const response = await unbudgeted.post('/v1/scrape', { url: site.at('/ok'), formats: ['markdown'], no_cache: true });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as { error: string }).error).toStartWith('The server is too busy to process the page');
    expect((await busy).status).toBe(422);
  });

  test('the timeout bounds the whole scrape: a slow server is cut at the deadline too', async () => {
    const factor = loadFactor();
    const answer = await send(unbudgeted, { url: site.at('/slow'), timeout: SHORTEST_TIMEOUT_MS, no_cache: true });
    expect(answer).toMatchObject({ status: 422, error: `Scrape timed out after ${SHORTEST_TIMEOUT_MS} ms` });
    expect(answer.ms).toBeLessThan(SHORTEST_TIMEOUT_MS + stretched(CUT_SLACK_MS, factor));
  });

  test('after a worker was killed at a deadline, an ordinary page scrapes', async () => {
    const response = await unbudgeted.post('/v1/scrape', { url: site.at('/ok'), formats: ['markdown'], no_cache: true });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { markdown: string }).markdown).toContain('An ordinary page.');
  });
});
