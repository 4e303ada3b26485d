/**
 * Crawls across real processes (`bun server/main.ts` started with Bun.spawn):
 * - restart: the only process is stopped mid-crawl — gracefully (SIGTERM), then killed (SIGKILL) —
 *   and started again each time; the crawl completes with every page exactly once. Runs on SQLite
 *   always and on Postgres when TEST_DATABASE_URL is set.
 * - scale-out (Postgres only): an API-only process and two worker processes share one crawl of
 *   600 pages; one worker is killed mid-crawl; every page appears exactly once, none is lost.
 * - politeness (Postgres only): two worker processes crawl a host whose robots.txt says
 *   `Crawl-delay: 1`; by the host's own clock the fetches arrive a second apart (less send jitter).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { spacingShortfalls, stretched } from '../helpers/load.ts';
import { postgresProcessDatabase, postgresTestUrl, processDatabases, type ProcessDatabase } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer } from '../helpers/trawl-server.ts';
import { startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { allResults, apiClient, pathOf, waitForSummary } from '../fixtures/crawl-site/runs.ts';
import { spawnTrawl as spawnProcess, type TrawlProcess } from '../helpers/trawl-process.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const CRAWL_ENV = { TRAWL_CRAWL_CONCURRENCY: '4', TRAWL_CRAWL_PER_HOST_CONCURRENCY: '4' };
const spawnTrawl = (role: 'all' | 'worker', env: Record<string, string>): TrawlProcess => spawnProcess(role, { ...CRAWL_ENV, ...env });

async function startApi(env: Record<string, string>): Promise<{ process: TrawlProcess; url: string }> {
  const process = spawnTrawl('all', env);
  const url = await Promise.race([
    process.url,
    process.proc.exited.then((code) => {
      throw new Error(`trawl exited ${code}: ${process.output()}`);
    }),
  ]);
  return { process, url };
}

/** Polls a crawl in another process until `predicate(summary)` holds. */
const waitFor = (api: string, id: string, predicate: (s: any) => boolean, timeoutMs = 120_000) =>
  waitForSummary(apiClient(api), `/v1/crawl/${id}`, predicate, timeoutMs);

/** Every tree page exactly once: the proof that nothing was lost or done twice. */
function expectEveryPageOnce(site: CrawlSite, results: any[]): void {
  const paths = results.map((r) => pathOf(r.url));
  expect(paths.length).toBe(site.tree.size);
  expect(new Set(paths).size).toBe(site.tree.size);
  expect([...paths].sort()).toEqual(site.tree.pathsWithin(100).sort());
  expect(results.every((r) => r.status === 'completed')).toBe(true);
}

test('an unknown --role stops the start with a message', async () => {
  const proc = Bun.spawn(['bun', 'server/main.ts', '--role', 'janitor'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr as ReadableStream<Uint8Array>).text()).toContain('--role must be api, worker or all');
});

const siteEnv = (site: CrawlSite) => ({ TRAWL_FETCH_RESOLVE: JSON.stringify(site.resolve) });

type Target = ProcessDatabase;

/** Postgres: an API-only server in this process and worker processes named a, b, … sharing one fresh schema. */
async function apiAndWorkers(overrides: Record<string, unknown> = {}) {
  const target = await postgresProcessDatabase(postgresTestUrl!, []);
  const api = await startTrawlServer({ storage: target.storage, overrides: { role: 'api', ...overrides } });
  const workers: TrawlProcess[] = [];
  return {
    target,
    api,
    workers,
    /** Each worker fetches with its own user agent, so the sites can tell who came. */
    spawnWorkers(names: string[], env: Record<string, string> = {}) {
      for (const name of names)
        workers.push(spawnTrawl('worker', { ...target.env, ...env, TRAWL_FETCH_USER_AGENT: `TrawlBot/0.1 (worker-${name})` }));
    },
    async stop() {
      for (const w of workers) w.proc.kill('SIGKILL');
      await api.stop();
      await target.cleanup();
    },
  };
}

for (const [name, makeTarget] of processDatabases()) {
  describe(`restart on ${name}`, () => {
    let site: CrawlSite;
    let target: Target;
    const running: TrawlProcess[] = [];

    beforeAll(async () => {
      site = await startCrawlSite({ pages: 300, delayMs: 15 });
      target = await makeTarget();
    });
    afterEach(() => {
      for (const p of running.splice(0)) p.proc.kill('SIGKILL');
    });
    afterAll(async () => {
      await site.stop();
      await target.cleanup();
    });

    test('stopping the only process mid-crawl (SIGTERM, then SIGKILL) and starting it again completes the crawl', async () => {
      const env = { ...target.env, ...siteEnv(site) };
      let api = await startApi(env);
      running.push(api.process);
      const created = (await (
        await fetch(`${api.url}/v1/crawl`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: site.url('/'), max_pages: 1000 }),
        })
      ).json()) as { id: string };

      const first = await waitFor(api.url, created.id, (s) => s.completed >= 40);
      expect(first.status).toBe('scraping');
      api.process.proc.kill('SIGTERM');
      expect(await api.process.proc.exited).toBe(0);

      api = await startApi(env);
      running.push(api.process);
      const second = await waitFor(api.url, created.id, (s) => s.completed >= 150);
      expect(second.status).toBe('scraping');
      api.process.proc.kill('SIGKILL');
      await api.process.proc.exited;

      api = await startApi(env);
      running.push(api.process);
      const done = await waitFor(api.url, created.id, (s) => s.status !== 'scraping');
      expect(done).toMatchObject({ status: 'completed', total: 300, completed: 300, failed: 0 });
      const results = await allResults(apiClient(api.url), `/v1/crawl/${created.id}/pages?per_page=100`);
      expectEveryPageOnce(site, results);
    }, 240_000);
  });
}

if (postgresTestUrl) {
  describe('scale-out on Postgres', () => {
    let site: CrawlSite;
    let cluster: Awaited<ReturnType<typeof apiAndWorkers>>;

    beforeAll(async () => {
      site = await startCrawlSite({ pages: 600, delayMs: 10 });
      // This process serves the API only; the two worker processes do all the crawling.
      cluster = await apiAndWorkers({ fetch: { resolve: site.resolve } });
    }, 30_000);
    afterAll(async () => {
      await cluster.stop();
      await site.stop();
    });

    test('two worker processes share a 600-page crawl; one is killed mid-crawl; every page exactly once', async () => {
      const { api, workers, target } = cluster;
      cluster.spawnWorkers(['a', 'b'], siteEnv(site));
      const created = await api.post('/v1/crawl', { url: site.url('/'), max_pages: 1000 });
      expect(created.status).toBe(202);
      const id = created.body.id;

      const atKill = await waitFor(api.url, id, (s) => s.completed >= 150);
      workers[0]!.proc.kill('SIGKILL');
      await workers[0]!.proc.exited;
      expect(atKill.completed).toBeLessThan(600);

      const done = await waitFor(api.url, id, (s) => s.status !== 'scraping', 180_000);
      expect(done).toMatchObject({ status: 'completed', total: 600, completed: 600, failed: 0 });
      expectEveryPageOnce(site, await allResults(api, `/v1/crawl/${id}/pages?per_page=100`));
      // Both processes really crawled.
      const agents = new Set(site.hits.filter((h) => h.path !== '/robots.txt').map((h) => h.agent));
      expect(agents).toEqual(new Set(['TrawlBot/0.1 (worker-a)', 'TrawlBot/0.1 (worker-b)']));
      const leftover = await target.storage.db.selectFrom('jobs').select('id').where('group_id', '=', id).execute();
      expect(leftover).toEqual([]);
      workers[1]!.proc.kill('SIGTERM');
      expect(await workers[1]!.proc.exited).toBe(0);
    }, 240_000);
  });
}

if (postgresTestUrl) {
  describe('politeness across processes on Postgres', () => {
    const PAGES = ['/', '/p1', '/p2', '/p3', '/p4'];
    const fetches: Array<{ path: string; at: number; agent: string }> = [];
    let site: FixtureSite;
    let cluster: Awaited<ReturnType<typeof apiAndWorkers>>;

    beforeAll(async () => {
      const page = (path: string) => (req: Request) => {
        fetches.push({ path, at: performance.timeOrigin + performance.now(), agent: req.headers.get('user-agent') ?? '' });
        const links =
          path === '/'
            ? PAGES.slice(1)
                .map((p) => `<a href="${p}">${p}</a>`)
                .join(' ')
            : '';
        return new Response(`<html><head><title>${path}</title></head><body><p>Page ${path}</p>${links}</body></html>`, {
          headers: { 'content-type': 'text/html' },
        });
      };
      site = startFixtureSite({
        ...Object.fromEntries(PAGES.map((path) => [path, page(path)])),
        '/robots.txt': { body: 'User-agent: *\nCrawl-delay: 1\n', headers: { 'content-type': 'text/plain' } },
      });
      cluster = await apiAndWorkers();
    }, 30_000);
    afterAll(async () => {
      await cluster.stop();
      await site.stop();
    });

    test('two worker processes together fetch a Crawl-delay: 1 host at most once a second', async () => {
      const { api, workers } = cluster;
      // One page at a time each: a worker holding a page waits at the gate while the other claims the next.
      cluster.spawnWorkers(['a', 'b'], { TRAWL_CRAWL_CONCURRENCY: '1' });
      // Both workers report in before the crawl starts, so both compete for its pages.
      for (let i = 0; i < 400 && (await api.get('/health')).body.queue.workers_alive < 2; i++) await Bun.sleep(25);
      const slackMs = Math.min(900, Math.max(500, stretched(150)));
      const created = await api.post('/v1/crawl', { url: site.at('/'), max_pages: 10 });
      const done = await waitFor(api.url, created.body.id, (s) => s.status !== 'scraping' && s.status !== 'queued', 60_000);
      expect(done).toMatchObject({ status: 'completed', completed: PAGES.length });
      expect(fetches.map((f) => f.path).sort()).toEqual([...PAGES].sort());
      const starts = fetches.map((f) => f.at).sort((a, b) => a - b);
      // The gate spaces the starts it grants by a second (by the database's clock). Measured where
      // the requests arrive, a start trails its grant by what the process does before sending (the
      // result-cache lookup, a database round trip): ~10 ms idle, a few hundred on a loaded
      // machine (460 ms seen once in a full CI run). So any two fetches k apart are k seconds apart
      // less that slack: no burst, no drift. (Taking the slot after the cache lookup would close it.)
      // The slack grows with the load measured now, up to 900 ms (a burst would be a few ms).
      expect(spacingShortfalls(starts, 1000, slackMs)).toEqual([]);
      expect(new Set(fetches.map((f) => f.agent))).toEqual(new Set(['TrawlBot/0.1 (worker-a)', 'TrawlBot/0.1 (worker-b)']));
      for (const w of workers) w.proc.kill('SIGTERM');
    }, 60_000);
  });
}
