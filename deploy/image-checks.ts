/**
 * The container image's checks, run by deploy/test-image.sh after it built the image:
 * `bun deploy/image-checks.ts <image>`. Drives podman on the host network against fixture sites
 * served from this process on 127.0.0.1, and prints one `ok`/`FAIL` line per check, the measured
 * numbers, and exits 1 when any check failed.
 *
 * One node (SQLite on a volume): /health, the image's HEALTHCHECK, non-root, a scrape, a page
 * rendered by the container's Chromium, a crawl stopped by SIGTERM mid-way (clean exit within the
 * engine's default 10 s), then a new container on the same volume: the cached result is there and
 * the crawl finishes with every page once. Scale-out: the services of compose.scale.yaml (two
 * `api`, two `worker`) started as the file says, over a fresh database on the machine's Postgres;
 * a crawl must land on both workers, each page fetched and stored once. Also: no dev dependency
 * and no build tool in the image, and both compose files read by podman-compose.
 */
import { SQL } from 'bun';
import { startCrawlSite, type CrawlSite } from '../test/fixtures/crawl-site/site.ts';
import { allResults, apiClient, pathOf } from '../test/fixtures/crawl-site/runs.ts';

const IMAGE = Bun.argv[2] ?? 'localhost/trawl:it';
const ROOT = new URL('..', import.meta.url).pathname;
const PREFIX = 'trawl-it';
const VOLUME = `${PREFIX}-data`;
const PG_ADMIN_URL = process.env.IT_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'trawl_image_test';
// Engines send SIGKILL this long after the stop signal when nobody says otherwise.
const ENGINE_DEFAULT_STOP_S = 10;

const outcomes: Array<{ name: string; ok: boolean }> = [];
const numbers: Array<[string, string]> = [];
const note = (key: string, value: string | number) => {
  numbers.push([key, String(value)]);
};

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function check(name: string, body: () => Promise<string | void>): Promise<boolean> {
  const started = performance.now();
  try {
    const detail = await body();
    outcomes.push({ name, ok: true });
    console.log(`ok   ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}`);
    return true;
  } catch (err) {
    outcomes.push({ name, ok: false });
    console.log(`FAIL ${name}: ${(err as Error).message}`);
    return false;
  }
}

async function run(cmd: string[], env?: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: out.trim(), err: err.trim() };
}

async function podman(...args: string[]): Promise<string> {
  const res = await run(['podman', ...args]);
  if (res.code !== 0) throw new Error(`podman ${args.slice(0, 3).join(' ')} … exited ${res.code}: ${res.err.split('\n').filter((l) => !/systemd/.test(l)).join(' ').slice(0, 400)}`);
  return res.out;
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = server.port!;
  await server.stop(true);
  return port;
}

async function api(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  const text = await res.text();
  let json: any = null;
  try { json = JSON.parse(text); } catch {}
  return { status: res.status, headers: res.headers, body: json, text };
}

/** Polls /health until it answers 200; the time it took from `since`, and the answer. */
async function waitHealthy(base: string, since: number, timeoutMs = 120_000): Promise<{ ms: number; body: any }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
    if (res?.status === 200) return { ms: Math.round(performance.now() - since), body: await res.json() };
    if (Date.now() > deadline) throw new Error(`${base}/health not 200 after ${timeoutMs} ms (last: ${res?.status ?? 'no answer'})`);
    await Bun.sleep(100);
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await Bun.sleep(100);
  }
}

const crawlStatus = async (base: string, id: string) => (await api(base, 'GET', `/v1/crawl/${id}?per_page=1`)).body;
const terminal = (status: string) => ['completed', 'failed', 'cancelled'].includes(status);

async function stopTimed(name: string, timeoutS: number): Promise<{ seconds: number; exitCode: number }> {
  const started = performance.now();
  await podman('stop', '--time', String(timeoutS), name);
  const seconds = (performance.now() - started) / 1000;
  const exitCode = Number(await podman('inspect', '--format', '{{.State.ExitCode}}', name));
  return { seconds, exitCode };
}

/** Every crawl result once, all completed, and exactly the site's pages. */
function expectEveryPageOnce(site: CrawlSite, results: any[]): void {
  const paths = results.map((r) => pathOf(r.url));
  const expected = site.tree.pathsWithin(1000).sort();
  assert(new Set(paths).size === paths.length, `some pages were stored twice (${paths.length} results, ${new Set(paths).size} distinct)`);
  assert(JSON.stringify([...paths].sort()) === JSON.stringify(expected), `results are not the site's ${expected.length} pages (got ${paths.length})`);
  const notCompleted = results.filter((r) => r.status !== 'completed');
  assert(notCompleted.length === 0, `${notCompleted.length} pages not completed: ${String(JSON.stringify(notCompleted[0])).slice(0, 200)}`);
}

/** Interpolates `${NAME}` and `${NAME:-default}` the way compose does. */
const interpolate = (value: string, env: Record<string, string | undefined>) =>
  value.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => env[name] || fallback || '');

interface ComposeService { image: string; command?: string[]; environment?: string[]; stop_grace_period?: string; volumes?: string[] }

async function readCompose(file: string): Promise<Record<string, ComposeService>> {
  return (Bun.YAML.parse(await Bun.file(`${ROOT}/${file}`).text()) as { services: Record<string, ComposeService> }).services;
}

/**
 * `podman run` for a compose service as the file defines it (image, command, environment, stop
 * grace), on the host network with the test's settings added last (later `-e` wins).
 */
function runArgs(name: string, service: ComposeService, overrides: Record<string, string>, env: Record<string, string | undefined>): string[] {
  const args = ['run', '-d', '--name', name, '--network', 'host'];
  for (const entry of service.environment ?? []) {
    const [key, ...rest] = entry.split('=');
    if (rest.length) args.push('-e', `${key}=${interpolate(rest.join('='), env)}`);
    else if (env[key!]) args.push('-e', `${key}=${env[key!]}`);
  }
  for (const [key, value] of Object.entries(overrides)) args.push('-e', `${key}=${value}`);
  if (service.stop_grace_period) args.push('--stop-timeout', String(parseInt(service.stop_grace_period, 10)));
  args.push(interpolate(service.image, env), ...(service.command ?? []));
  return args;
}

/** Removes what the checks made: containers with their anonymous /data volumes, named volumes, and
 * the volumes and network podman-compose 1.0.3 creates even in --dry-run. */
async function cleanup(): Promise<void> {
  const list = async (...cmd: string[]) => (await run(['podman', ...cmd])).out.split('\n').filter((n) => n.startsWith(PREFIX));
  const containers = await list('ps', '-a', '--format', '{{.Names}}');
  if (containers.length) await run(['podman', 'rm', '-f', '-v', '-t', '0', ...containers]);
  const volumes = await list('volume', 'ls', '--format', '{{.Name}}');
  if (volumes.length) await run(['podman', 'volume', 'rm', '-f', ...volumes]);
  const networks = await list('network', 'ls', '--format', '{{.Name}}');
  if (networks.length) await run(['podman', 'network', 'rm', '-f', ...networks]);
}

// ---------------------------------------------------------------------------------------------

await cleanup();
const siteA = await startCrawlSite({ pages: 60, delayMs: 400 });
const siteB = await startCrawlSite({ pages: 60, delayMs: 100 });
const appServer = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: () => new Response(
    '<!doctype html><html><head><title>Tide app</title></head><body><div id="root"></div><script>' +
    "document.getElementById('root').innerHTML = '<h1>Rendered in Chromium</h1><p>' + ['tide', 'tables', 'computed', 'by', 'script'].join(' ') + ' ' + (6 * 7) + '</p>';" +
    '</script></body></html>',
    { headers: { 'content-type': 'text/html' } },
  ),
});
const appUrl = `http://127.0.0.1:${appServer.port}/app`;
const testFetchEnv = { TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_FETCH_RESOLVE: JSON.stringify(siteA.resolve) };

try {
  await check('image configuration: non-root user, /data volume, port, stop signal, HEALTHCHECK', async () => {
    const config = JSON.parse(await podman('image', 'inspect', '--format', '{{json .Config}}', IMAGE));
    assert(config.User && !/^(0|root)(:|$)/.test(config.User), `image user is "${config.User}"`);
    assert(config.Volumes && '/data' in config.Volumes, 'no /data volume');
    assert(config.ExposedPorts && '3000/tcp' in config.ExposedPorts, 'port 3000 not exposed');
    assert(config.StopSignal === 'SIGTERM', `stop signal ${config.StopSignal}`);
    const health = JSON.parse(await podman('image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE));
    assert(health?.Test?.join(' ').includes('deploy/healthcheck.ts'), `HEALTHCHECK missing (${JSON.stringify(health)}); was the image built with --format docker?`);
    return `user ${config.User}`;
  });

  await check('no dev dependency and no build tool in the image', async () => {
    const deps = await run(['podman', 'run', '--rm', '--network', 'host', '-v', `${ROOT}/deploy/dev-deps.ts:/tmp/dev-deps.ts:ro`, '--entrypoint', 'bun', IMAGE, '/tmp/dev-deps.ts', 'check', '/app']);
    assert(deps.code === 0, deps.err || deps.out);
    const tools = await run(['podman', 'run', '--rm', '--network', 'host', '--entrypoint', 'sh', IMAGE, '-c',
      'for t in gcc cc c++ g++ make ld python3 node npm curl wget git; do command -v $t; done; ls /root/.bun 2>/dev/null; ldd /usr/lib/chromium/chromium | grep "not found"; true']);
    assert(tools.out === '', `found in the image: ${tools.out.replace(/\n/g, ', ')}`);
    return deps.out;
  });

  // ---- one node, SQLite on a volume ----
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const single = `${PREFIX}-single`;
  const singleArgs = (name: string) => ['run', '-d', '--name', name, '--network', 'host', '-v', `${VOLUME}:/data`,
    '-e', `TRAWL_SERVER_PORT=${port}`, ...Object.entries(testFetchEnv).flatMap(([k, v]) => ['-e', `${k}=${v}`]), IMAGE];
  let crawlId = '';

  const started = await check('cold start to a healthy /health (SQLite on a new volume)', async () => {
    const t0 = performance.now();
    await podman(...singleArgs(single));
    const { ms, body } = await waitHealthy(base, t0);
    note('cold_start_to_healthy_ms', ms);
    assert(body.status === 'ok', `status ${body.status}: ${body.reason}`);
    assert(body.database?.dialect === 'sqlite', `database ${JSON.stringify(body.database)}`);
    assert(body.browser?.available === true, `browser ${JSON.stringify(body.browser)}`);
    return `${ms} ms from podman run; status ok, sqlite, chromium available`;
  });

  if (started) {
    await check('HEALTHCHECK passes and every process runs as the image user', async () => {
      const hc = await run(['podman', 'healthcheck', 'run', single]);
      assert(hc.code === 0, `podman healthcheck run exited ${hc.code}: ${hc.out} ${hc.err}`);
      const uids = await podman('exec', single, 'sh', '-c', 'for p in /proc/[0-9]*; do [ -r $p/cmdline ] && tr "\\0" " " < $p/cmdline | grep -q . && awk \'/^Uid:/ {print $2}\' $p/status; done | sort -u');
      assert(uids.split('\n').every((u) => u !== '0') && uids.length > 0, `processes running as uid ${uids.replace(/\n/g, ',')}`);
      const owner = await podman('exec', single, 'stat', '-c', '%u', '/data/trawl.db');
      assert(owner !== '0', 'the database file belongs to root');
      return `uids ${uids.replace(/\n/g, ',')}; /data/trawl.db owned by ${owner}`;
    });

    await check('scrape of a fixture page served from the host', async () => {
      const res = await api(base, 'POST', '/v1/scrape', { url: siteA.url('/'), formats: ['markdown'] });
      assert(res.status === 200, `status ${res.status}: ${res.text.slice(0, 300)}`);
      assert(res.body.markdown?.includes('Harbour home'), `markdown lacks the title: ${String(res.body.markdown).slice(0, 200)}`);
      assert(res.headers.get('x-trawl-cache') === 'miss', `cache ${res.headers.get('x-trawl-cache')}`);
      return `${res.body.metadata.word_count} words`;
    });

    await check("page rendered in the container's Chromium (script output, screenshot)", async () => {
      const res = await api(base, 'POST', '/v1/scrape', { url: appUrl, render: true, formats: ['markdown', 'screenshot'] });
      assert(res.status === 200, `status ${res.status}: ${res.text.slice(0, 300)}`);
      assert(res.body.markdown?.includes('Rendered in Chromium') && res.body.markdown.includes('tide tables computed by script 42'), `markdown lacks the script's text: ${String(res.body.markdown).slice(0, 200)}`);
      const png = Buffer.from(String(res.body.screenshot ?? ''), 'base64');
      assert(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'screenshot is not a PNG');
      const health = (await api(base, 'GET', '/health')).body;
      assert(health.browser.launches >= 1, `browser launches ${health.browser.launches}`);
      return `${png.length} byte screenshot, ${health.browser.launches} browser launch`;
    });

    await check('SIGTERM mid-crawl: clean exit within the engine default grace', async () => {
      const created = await api(base, 'POST', '/v1/crawl', { url: siteA.url('/'), max_pages: 100 });
      assert(created.status === 202, `crawl ${created.status}: ${created.text.slice(0, 200)}`);
      crawlId = created.body.id;
      const atStop = await waitFor('8 pages crawled', async () => {
        const s = await crawlStatus(base, crawlId);
        return s.completed >= 8 ? s : null;
      }, 60_000);
      assert(atStop.completed < siteA.tree.size, 'the crawl finished before the stop; nothing was in flight');
      const { seconds, exitCode } = await stopTimed(single, 30);
      note('sigterm_stop_seconds', seconds.toFixed(1));
      const logs = await run(['podman', 'logs', single]);
      assert(exitCode === 0, `exit code ${exitCode}`);
      assert(seconds < ENGINE_DEFAULT_STOP_S, `stopping took ${seconds.toFixed(1)} s`);
      assert(`${logs.out}\n${logs.err}`.includes('shutting down'), 'no "shutting down" in the logs');
      return `stopped at ${atStop.completed}/${siteA.tree.size} pages in ${seconds.toFixed(1)} s, exit 0`;
    });

    await check('new container on the same volume: data survived, the crawl resumes, every page once', async () => {
      await podman('rm', single);
      const t0 = performance.now();
      await podman(...singleArgs(`${single}-2`));
      const { ms } = await waitHealthy(base, t0);
      note('start_on_existing_volume_ms', ms);
      const again = await api(base, 'POST', '/v1/scrape', { url: siteA.url('/'), formats: ['markdown'] });
      assert(again.status === 200 && again.headers.get('x-trawl-cache') === 'hit', `scrape after restart: ${again.status}, cache ${again.headers.get('x-trawl-cache')}`);
      const done = await waitFor('crawl finished', async () => {
        const s = await crawlStatus(base, crawlId);
        return terminal(s.status) ? s : null;
      }, 120_000);
      assert(done.status === 'completed' && done.completed === siteA.tree.size && done.failed === 0, `crawl ended ${JSON.stringify(done).slice(0, 200)}`);
      expectEveryPageOnce(siteA, await allResults(apiClient(base), `/v1/crawl/${crawlId}/pages?per_page=100`));
      return `healthy in ${ms} ms; cached result served; crawl ${done.completed}/${siteA.tree.size}, each page once`;
    });

    await check('stop with the engine default timeout exits 0', async () => {
      const { seconds, exitCode } = await stopTimed(`${single}-2`, ENGINE_DEFAULT_STOP_S);
      assert(exitCode === 0, `exit code ${exitCode} after ${seconds.toFixed(1)} s`);
      note('idle_stop_seconds', seconds.toFixed(1));
      return `${seconds.toFixed(1)} s`;
    });
  }

  // ---- compose files ----
  await check('podman-compose reads compose.yaml and compose.scale.yaml', async () => {
    const expected: Record<string, string[]> = { 'compose.yaml': ['trawl'], 'compose.scale.yaml': ['postgres', 'api-1', 'api-2', 'worker-1', 'worker-2'] };
    const summary: string[] = [];
    for (const [file, services] of Object.entries(expected)) {
      const res = await run(['podman-compose', '-p', `${PREFIX}-dry`, '-f', `${ROOT}/${file}`, '--dry-run', 'up', '-d', '--no-build'], { TRAWL_IMAGE: IMAGE });
      const runs = `${res.out}\n${res.err}`.split('\n').filter((l) => l.startsWith('podman run '));
      for (const service of services) assert(runs.some((l) => l.includes(`--name=${PREFIX}-dry_${service}_1`)), `${file}: no container for ${service} (podman-compose exited ${res.code}: ${res.err.slice(-300)})`);
      assert(runs.length === services.length, `${file}: ${runs.length} containers for ${services.length} services`);
      const parsed = await readCompose(file);
      assert(JSON.stringify(Object.keys(parsed)) === JSON.stringify(services), `${file}: services ${Object.keys(parsed)}`);
      summary.push(`${file}: ${runs.length} container${runs.length > 1 ? 's' : ''}`);
    }
    const scale = await readCompose('compose.scale.yaml');
    for (const [name, role] of [['api-1', 'api'], ['api-2', 'api'], ['worker-1', 'worker'], ['worker-2', 'worker']] as const) {
      assert(scale[name]?.command?.join(' ') === `--role ${role}`, `${name} runs ${scale[name]?.command}`);
    }
    return summary.join('; ');
  });

  // ---- scale-out: compose.scale.yaml's api and worker services over one Postgres ----
  const pg = new SQL(PG_ADMIN_URL);
  await pg.unsafe(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
  await pg.unsafe(`CREATE DATABASE ${PG_DB}`);
  const dbUrl = new URL(PG_ADMIN_URL);
  dbUrl.pathname = `/${PG_DB}`;
  try {
    const services = await readCompose('compose.scale.yaml');
    const ports = { 'api-1': await freePort(), 'api-2': await freePort() };
    const apis = Object.values(ports).map((p) => `http://127.0.0.1:${p}`);
    const names = ['api-1', 'api-2', 'worker-1', 'worker-2'];
    const composeEnv = { TRAWL_IMAGE: IMAGE };

    const up = await check('scale-out up: compose.scale.yaml\'s two api and two worker services on one Postgres', async () => {
      const t0 = performance.now();
      await Promise.all(names.map((name) => {
        const overrides: Record<string, string> = { DATABASE_URL: dbUrl.href };
        if (name.startsWith('api')) overrides.TRAWL_SERVER_PORT = String(ports[name as keyof typeof ports]);
        else Object.assign(overrides, testFetchEnv, { TRAWL_FETCH_RESOLVE: JSON.stringify(siteB.resolve), TRAWL_FETCH_USER_AGENT: `TrawlBot/0.1 (${name})` });
        return podman(...runArgs(`${PREFIX}-${name}`, services[name]!, overrides, composeEnv));
      }));
      for (const a of apis) await waitHealthy(a, t0);
      const ready = await waitFor('both workers reported in', async () => {
        const h = (await api(apis[0]!, 'GET', '/health')).body;
        return h.queue?.workers_alive === 2 ? h : null;
      }, 60_000);
      const ms = Math.round(performance.now() - t0);
      note('scale_out_ready_ms', ms);
      assert(ready.database.dialect === 'postgres', `dialect ${ready.database.dialect}`);
      return `both APIs healthy and 2 workers alive ${ms} ms after podman run`;
    });

    if (up) {
      await check('scale-out crawl: lands on both workers, each page fetched and stored once', async () => {
        const t0 = performance.now();
        const created = await api(apis[0]!, 'POST', '/v1/crawl', { url: siteB.url('/'), max_pages: 100 });
        assert(created.status === 202, `crawl ${created.status}: ${created.text.slice(0, 200)}`);
        // Followed through the other API process: both read the one database.
        const done = await waitFor('crawl finished', async () => {
          const s = await crawlStatus(apis[1]!, created.body.id);
          return terminal(s.status) ? s : null;
        }, 180_000);
        const seconds = (performance.now() - t0) / 1000;
        assert(done.status === 'completed' && done.completed === siteB.tree.size && done.failed === 0, `crawl ended ${JSON.stringify(done).slice(0, 200)}`);
        expectEveryPageOnce(siteB, await allResults(apiClient(apis[1]!), `/v1/crawl/${created.body.id}/pages?per_page=100`));
        const pageHits = siteB.hits.filter((h) => h.path !== '/robots.txt');
        const perPath = new Map<string, number>();
        for (const h of pageHits) perPath.set(h.path, (perPath.get(h.path) ?? 0) + 1);
        const repeated = [...perPath].filter(([, n]) => n !== 1);
        assert(perPath.size === siteB.tree.size && repeated.length === 0, `${perPath.size} paths fetched; fetched more than once: ${repeated.slice(0, 5).map(([p, n]) => `${p}×${n}`).join(', ')}`);
        const perWorker: Record<string, number> = {};
        for (const h of pageHits) perWorker[h.agent] = (perWorker[h.agent] ?? 0) + 1;
        assert(Object.keys(perWorker).length === 2 && Object.keys(perWorker).every((a) => /\(worker-[12]\)$/.test(a)), `pages fetched by ${JSON.stringify(perWorker)}`);
        const db = new SQL(dbUrl.href);
        const [jobs] = await db`SELECT count(*)::int AS n FROM jobs WHERE group_id = ${created.body.id}`;
        const [workers] = await db`SELECT count(*)::int AS n FROM job_workers`;
        await db.close();
        assert(jobs.n === 0, `${jobs.n} jobs of the crawl left in the queue`);
        assert(workers.n === 2, `${workers.n} processes registered as job workers (the api containers must run none)`);
        const split = Object.entries(perWorker).map(([a, n]) => `${a.match(/worker-\d/)![0]} ${n}`).sort().join(', ');
        note('scale_out_crawl', `${siteB.tree.size} pages in ${seconds.toFixed(1)} s (${(siteB.tree.size / seconds).toFixed(1)} pages/s, 100 ms per page at the site); ${split}`);
        return `${siteB.tree.size} pages in ${seconds.toFixed(1)} s; ${split}; no job left; 2 worker processes registered`;
      });

      await check('scale-out stop: every container exits 0 on SIGTERM', async () => {
        const stops = await Promise.all(names.map(async (name) => ({ name, ...(await stopTimed(`${PREFIX}-${name}`, 30)) })));
        const bad = stops.filter((s) => s.exitCode !== 0 || s.seconds >= ENGINE_DEFAULT_STOP_S);
        assert(bad.length === 0, bad.map((s) => `${s.name} exit ${s.exitCode} after ${s.seconds.toFixed(1)} s`).join('; '));
        return stops.map((s) => `${s.name} ${s.seconds.toFixed(1)} s`).join(', ');
      });
    }
  } finally {
    await cleanup();
    await pg.unsafe(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`).catch(() => {});
    await pg.close();
  }
} finally {
  await cleanup();
  await Promise.all([siteA.stop(), siteB.stop(), appServer.stop(true)]);
}

for (const [key, value] of numbers) console.log(`number ${key}: ${value}`);
const failed = outcomes.filter((o) => !o.ok).length;
console.log(`image checks: ${outcomes.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
