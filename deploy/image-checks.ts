/**
 * The container image's checks, run by deploy/test-image.sh after it built the image (and the
 * Postgres stand-in when no real postgres image is here): `bun deploy/image-checks.ts <image>`.
 * Drives podman and podman-compose against fixture sites served from this process, and prints one
 * `ok`/`FAIL` line per check, the measured numbers, and exits 1 when any check failed.
 *
 * One node by hand (`podman run` on the host network, SQLite on a volume): /health, the image's
 * HEALTHCHECK, non-root, a scrape, a page rendered by the container's Chromium, a crawl stopped by
 * SIGTERM mid-way (clean exit within the engine's default 10 s), then a new container on the same
 * volume: the cached result is there and the crawl finishes with every page once. Then the two
 * compose files, each brought up for real with `podman-compose up -d` on its own bridge network:
 * compose.yaml must answer /health and scrape a page served from the host through its published
 * port; compose.scale.yaml (Postgres, two `api`, two `worker`) must get both APIs healthy and both
 * workers alive, and a crawl must land on both workers, each page fetched and stored once. Both
 * end with `podman-compose stop` / `down -v`, every container exiting 0, nothing left behind.
 * Also: no dev dependency and no build tool in the image.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCrawlSite, type CrawlSite } from '../test/fixtures/crawl-site/site.ts';
import { allResults, apiClient, pathOf } from '../test/fixtures/crawl-site/runs.ts';

const IMAGE = Bun.argv[2] ?? 'localhost/trawl:it';
const ROOT = new URL('..', import.meta.url).pathname;
const PREFIX = 'trawl-it';
const VOLUME = `${PREFIX}-data`;
// Containers on a compose project's bridge network reach this host at the network's gateway, which
// podman (4.x) names host.containers.internal in every container's /etc/hosts.
const HOST_FROM_CONTAINER = 'host.containers.internal';
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

/** Runs a command with this process's environment plus `env`, or with exactly `env` when `inherit` is false. */
async function run(cmd: string[], env?: Record<string, string>, inherit = true): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: inherit ? { ...process.env, ...env } : env });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out: out.trim(), err: err.trim() };
}

async function podman(...args: string[]): Promise<string> {
  const res = await run(['podman', ...args]);
  if (res.code !== 0)
    throw new Error(
      `podman ${args.slice(0, 3).join(' ')} … exited ${res.code}: ${res.err
        .split('\n')
        .filter((l) => !/systemd/.test(l))
        .join(' ')
        .slice(0, 400)}`,
    );
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
  try {
    json = JSON.parse(text);
  } catch {}
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
  assert(
    JSON.stringify([...paths].sort()) === JSON.stringify(expected),
    `results are not the site's ${expected.length} pages (got ${paths.length})`,
  );
  const notCompleted = results.filter((r) => r.status !== 'completed');
  assert(notCompleted.length === 0, `${notCompleted.length} pages not completed: ${String(JSON.stringify(notCompleted[0])).slice(0, 200)}`);
}

// ---- podman-compose --------------------------------------------------------------------------

interface ComposeProject {
  /** The project name (`-p`), which prefixes its containers, volumes and network. */
  name: string;
  /** The compose file, then a test override that adds settings to some services. */
  files: string[];
  /** podman-compose's whole environment: what the files interpolate and pass through. */
  env: Record<string, string>;
}

/**
 * This process's environment without Trawl's own settings (a TRAWL_API_KEY exported here would
 * reach the containers through the files' pass-through names), plus the compose variables.
 */
function composeEnv(vars: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(TRAWL_|DATABASE_URL$|POSTGRES_)/.test(key)) env[key] = value;
  }
  return { ...env, ...vars };
}

let overrideDir = '';
/**
 * A compose override file with extra environment for some services, the way an operator adds
 * settings in compose.override.yaml; compose files merge `environment` maps by name.
 */
function overrideFile(name: string, environment: Record<string, Record<string, string>>): string {
  overrideDir ||= mkdtempSync(join(tmpdir(), `${PREFIX}-compose-`));
  const services = Object.fromEntries(Object.entries(environment).map(([service, env]) => [service, { environment: env }]));
  const file = join(overrideDir, `${name}.override.yaml`);
  writeFileSync(file, JSON.stringify({ services }, null, 2)); // JSON is YAML
  return file;
}

const compose = (p: ComposeProject, ...args: string[]) =>
  run(['podman-compose', '-p', p.name, ...p.files.flatMap((f) => ['-f', f]), ...args], p.env, false);

/** The project's containers by service (podman-compose labels them as docker compose does). */
async function composeContainers(p: ComposeProject): Promise<Record<string, string>> {
  const out = await podman(
    'ps',
    '-a',
    '--filter',
    `label=io.podman.compose.project=${p.name}`,
    '--format',
    '{{.Names}} {{index .Labels "com.docker.compose.service"}}',
  );
  return Object.fromEntries(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ').reverse() as [string, string]),
  );
}

/**
 * `podman-compose up -d`, then every service of the file must have a running container (within
 * 60 s: one that exited because Postgres was not ready yet is restarted by its restart policy).
 */
async function composeUp(p: ComposeProject, services: string[]): Promise<Record<string, string>> {
  const res = await compose(p, 'up', '-d', '--no-build');
  // podman-compose 1.0.3 exits 0 even when a `podman run` failed: the containers tell.
  const containers = await composeContainers(p);
  const deadline = Date.now() + 60_000;
  let failing: string[] = [];
  do {
    if (failing.length) await Bun.sleep(500);
    failing = [];
    for (const service of services) {
      const name = containers[service];
      const state = name ? await podman('inspect', '--format', '{{.State.Status}}', name) : 'missing';
      if (state !== 'running') failing.push(`${service} ${state}`);
    }
  } while (failing.length && !failing.some((f) => f.endsWith(' missing')) && Date.now() < deadline);
  const output = `${res.out}\n${res.err}`.split('\n').filter((l) => l && !/systemd|syslog|^\*\* merged|^\s|^[{}]/.test(l));
  assert(
    failing.length === 0 && Object.keys(containers).length === services.length,
    `after podman-compose up (exit ${res.code}): ${failing.join(', ') || `containers ${Object.keys(containers)}`}; ${output.slice(-6).join(' | ').slice(0, 600)}`,
  );
  return containers;
}

/**
 * `podman-compose down -v`, then what podman-compose 1.0.3 leaves behind removed too (the network,
 * and the anonymous volumes of the image's VOLUME /data in containers without a mount there);
 * nothing of the project may remain.
 */
async function composeDown(p: ComposeProject): Promise<void> {
  const containers = Object.values(await composeContainers(p));
  const mounts = containers.length
    ? (await podman('inspect', '--format', '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}', ...containers))
        .split(/\s+/)
        .filter(Boolean)
    : [];
  const res = await compose(p, 'down', '-v');
  for (const volume of mounts) await run(['podman', 'volume', 'rm', '-f', volume]);
  await run(['podman', 'network', 'rm', '-f', `${p.name}_default`]);
  const left = [
    ...Object.values(await composeContainers(p)).map((c) => `container ${c}`),
    ...(await podman('volume', 'ls', '--format', '{{.Name}}', '--filter', `label=io.podman.compose.project=${p.name}`))
      .split('\n')
      .filter(Boolean)
      .map((v) => `volume ${v}`),
    ...(await podman('volume', 'ls', '--format', '{{.Name}}'))
      .split('\n')
      .filter((v) => mounts.includes(v))
      .map((v) => `volume ${v}`),
    ...((await run(['podman', 'network', 'exists', `${p.name}_default`])).code === 0 ? [`network ${p.name}_default`] : []),
  ];
  assert(left.length === 0, `left after podman-compose down -v (exit ${res.code}): ${left.join(', ')}`);
}

const psql = async (container: string, query: string) => podman('exec', container, 'psql', '-U', 'trawl', '-d', 'trawl', '-tAc', query);

/** Removes what the checks made (all named `trawl-it…`, compose projects included): containers
 * with their anonymous volumes, named volumes and networks. */
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
// Served on every interface for the containers of the compose projects, which run on bridge
// networks; answers only this host and podman's container networks (10.88.0.0/16 and its 10.89+ pool).
const siteB = await startCrawlSite({
  pages: 60,
  delayMs: 100,
  hostname: '0.0.0.0',
  resolveTo: HOST_FROM_CONTAINER,
  allowClient: (ip) => /^(::ffff:)?(127|10)\./.test(ip) || ip === '::1',
});
const composeFetchEnv = { TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_FETCH_RESOLVE: JSON.stringify(siteB.resolve) };
const appServer = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: () =>
    new Response(
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
    assert(
      health?.Test?.join(' ').includes('deploy/healthcheck.ts'),
      `HEALTHCHECK missing (${JSON.stringify(health)}); was the image built with --format docker?`,
    );
    return `user ${config.User}`;
  });

  await check('no dev dependency and no build tool in the image', async () => {
    const deps = await run([
      'podman',
      'run',
      '--rm',
      '--network',
      'host',
      '-v',
      `${ROOT}/deploy/dev-deps.ts:/tmp/dev-deps.ts:ro`,
      '--entrypoint',
      'bun',
      IMAGE,
      '/tmp/dev-deps.ts',
      'check',
      '/app',
    ]);
    assert(deps.code === 0, deps.err || deps.out);
    const tools = await run([
      'podman',
      'run',
      '--rm',
      '--network',
      'host',
      '--entrypoint',
      'sh',
      IMAGE,
      '-c',
      'for t in gcc cc c++ g++ make ld python3 node npm curl wget git; do command -v $t; done; ls /root/.bun 2>/dev/null; ldd /usr/lib/chromium/chromium | grep "not found"; true',
    ]);
    assert(tools.out === '', `found in the image: ${tools.out.replace(/\n/g, ', ')}`);
    return deps.out;
  });

  // ---- one node, SQLite on a volume ----
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const single = `${PREFIX}-single`;
  const singleArgs = (name: string) => [
    'run',
    '-d',
    '--name',
    name,
    '--network',
    'host',
    '-v',
    `${VOLUME}:/data`,
    '-e',
    `TRAWL_SERVER_PORT=${port}`,
    ...Object.entries(testFetchEnv).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    IMAGE,
  ];
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
      const uids = await podman(
        'exec',
        single,
        'sh',
        '-c',
        'for p in /proc/[0-9]*; do [ -r $p/cmdline ] && tr "\\0" " " < $p/cmdline | grep -q . && awk \'/^Uid:/ {print $2}\' $p/status; done | sort -u',
      );
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
      assert(
        res.body.markdown?.includes('Rendered in Chromium') && res.body.markdown.includes('tide tables computed by script 42'),
        `markdown lacks the script's text: ${String(res.body.markdown).slice(0, 200)}`,
      );
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
      const atStop = await waitFor(
        '8 pages crawled',
        async () => {
          const s = await crawlStatus(base, crawlId);
          return s.completed >= 8 ? s : null;
        },
        60_000,
      );
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
      assert(
        again.status === 200 && again.headers.get('x-trawl-cache') === 'hit',
        `scrape after restart: ${again.status}, cache ${again.headers.get('x-trawl-cache')}`,
      );
      const done = await waitFor(
        'crawl finished',
        async () => {
          const s = await crawlStatus(base, crawlId);
          return terminal(s.status) ? s : null;
        },
        120_000,
      );
      assert(
        done.status === 'completed' && done.completed === siteA.tree.size && done.failed === 0,
        `crawl ended ${JSON.stringify(done).slice(0, 200)}`,
      );
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

  // ---- compose.yaml: one node, brought up by podman-compose ----
  const onePort = await freePort();
  const oneBase = `http://127.0.0.1:${onePort}`;
  const one: ComposeProject = {
    name: `${PREFIX}-one`,
    files: [`${ROOT}/compose.yaml`, overrideFile('one', { trawl: composeFetchEnv })],
    env: composeEnv({ TRAWL_IMAGE: IMAGE, TRAWL_PORT: String(onePort) }),
  };
  let oneContainer = '';
  const oneUp = await check('compose.yaml: podman-compose up -d, healthy on the published port (bridge network)', async () => {
    const t0 = performance.now();
    oneContainer = (await composeUp(one, ['trawl'])).trawl!;
    const { ms, body } = await waitHealthy(oneBase, t0);
    note('compose_one_up_to_healthy_ms', ms);
    assert(body.status === 'ok', `status ${body.status}: ${body.reason}`);
    assert(body.database?.dialect === 'sqlite', `database ${JSON.stringify(body.database)}`);
    const network = await podman('inspect', '--format', '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}} {{end}}', oneContainer);
    assert(network.trim() === `${one.name}_default`, `container on network(s) "${network.trim()}"`);
    const volume = await podman(
      'inspect',
      '--format',
      '{{range .Mounts}}{{if eq .Destination "/data"}}{{.Name}}{{end}}{{end}}',
      oneContainer,
    );
    assert(volume === `${one.name}_trawl-data`, `/data is "${volume}", not the file's trawl-data volume`);
    const hc = await run(['podman', 'healthcheck', 'run', oneContainer]);
    assert(hc.code === 0, `podman healthcheck run exited ${hc.code}: ${hc.out} ${hc.err}`);
    return `${ms} ms from podman-compose up; network ${network.trim()}, volume ${volume}, HEALTHCHECK passes`;
  });

  if (oneUp) {
    await check('compose.yaml: scrape of a page served from the host, through the published port', async () => {
      const res = await api(oneBase, 'POST', '/v1/scrape', { url: siteB.url('/'), formats: ['markdown'] });
      assert(res.status === 200, `status ${res.status}: ${res.text.slice(0, 300)}`);
      assert(res.body.markdown?.includes('Harbour home'), `markdown lacks the title: ${String(res.body.markdown).slice(0, 200)}`);
      assert(
        siteB.hits.some((h) => h.path === '/'),
        'the fixture site saw no request',
      );
      return `${res.body.metadata.word_count} words, fetched from ${HOST_FROM_CONTAINER}:${siteB.port}`;
    });
  }
  siteB.hits.length = 0;

  await check('compose.yaml: podman-compose stop (exit 0), down -v leaves nothing', async () => {
    let detail = '';
    if (oneContainer) {
      const t0 = performance.now();
      const stop = await compose(one, 'stop');
      const seconds = (performance.now() - t0) / 1000;
      const exitCode = Number(await podman('inspect', '--format', '{{.State.ExitCode}}', oneContainer));
      assert(exitCode === 0, `exit code ${exitCode} after podman-compose stop (exit ${stop.code}) in ${seconds.toFixed(1)} s`);
      detail = `stopped in ${seconds.toFixed(1)} s, exit 0; `;
    }
    await composeDown(one);
    return `${detail}container, volume and network removed`;
  });

  // ---- compose.scale.yaml: Postgres, two APIs, two workers, brought up by podman-compose ----
  const scaleFile = Bun.YAML.parse(await Bun.file(`${ROOT}/compose.scale.yaml`).text()) as { services: Record<string, { image: string }> };
  const scaleServices = Object.keys(scaleFile.services);
  const trawlServices = ['api-1', 'api-2', 'worker-1', 'worker-2'];
  const apiPorts = [await freePort(), await freePort()];
  const apis = apiPorts.map((p) => `http://127.0.0.1:${p}`);
  const scale: ComposeProject = {
    name: `${PREFIX}-scale`,
    files: [
      `${ROOT}/compose.scale.yaml`,
      overrideFile(
        'scale',
        Object.fromEntries(
          ['worker-1', 'worker-2'].map((w) =>
            // Each worker tells the fixture site who it is, so the crawl's split between them shows.
            [w, { ...composeFetchEnv, TRAWL_FETCH_USER_AGENT: `TrawlBot/0.1 (${w})` }],
          ),
        ),
      ),
    ],
    env: composeEnv({ TRAWL_IMAGE: IMAGE, TRAWL_API_1_PORT: String(apiPorts[0]), TRAWL_API_2_PORT: String(apiPorts[1]) }),
  };
  let scaleContainers: Record<string, string> = {};
  try {
    const up = await check('compose.scale.yaml: podman-compose up -d, both APIs healthy and both workers alive', async () => {
      assert(
        JSON.stringify(scaleServices) === JSON.stringify(['postgres', ...trawlServices]),
        `compose.scale.yaml has the services ${scaleServices}`,
      );
      const pgImage = scaleFile.services.postgres!.image;
      const standIn = await podman('image', 'inspect', '--format', '{{index .Labels "io.trawl.test-stand-in"}}', pgImage).catch(() => '');
      const t0 = performance.now();
      scaleContainers = await composeUp(scale, scaleServices);
      for (const a of apis) await waitHealthy(a, t0, 180_000);
      const ready = await waitFor(
        'both workers reported in',
        async () => {
          const h = (await api(apis[0]!, 'GET', '/health')).body;
          return h.queue?.workers_alive === 2 ? h : null;
        },
        60_000,
      );
      const ms = Math.round(performance.now() - t0);
      note('compose_scale_up_to_ready_ms', ms);
      assert(ready.database.dialect === 'postgres', `dialect ${ready.database.dialect}`);
      const version = await psql(scaleContainers.postgres!, 'SHOW server_version');
      const restarts = (
        await Promise.all(
          trawlServices.map(async (s) => [s, await podman('inspect', '--format', '{{.RestartCount}}', scaleContainers[s]!)] as const),
        )
      )
        .filter(([, n]) => n !== '0')
        .map(([s, n]) => `${s} restarted ${n}×`);
      const pg = `${pgImage} = ${standIn ? "the test's stand-in" : 'a real image'}, PostgreSQL ${version.split(' ')[0]}`;
      note('compose_scale_postgres', pg);
      return `both APIs healthy and 2 workers alive ${ms} ms after podman-compose up (${[pg, ...restarts].join('; ')})`;
    });

    if (up) {
      await check('compose.scale.yaml crawl: lands on both workers, each page fetched and stored once', async () => {
        const t0 = performance.now();
        const created = await api(apis[0]!, 'POST', '/v1/crawl', { url: siteB.url('/'), max_pages: 100 });
        assert(created.status === 202, `crawl ${created.status}: ${created.text.slice(0, 200)}`);
        const crawl = String(created.body.id);
        assert(/^[\w-]+$/.test(crawl), `crawl id ${crawl}`);
        // Followed through the other API container: both read the one database.
        const done = await waitFor(
          'crawl finished',
          async () => {
            const s = await crawlStatus(apis[1]!, crawl);
            return terminal(s.status) ? s : null;
          },
          180_000,
        );
        const seconds = (performance.now() - t0) / 1000;
        assert(
          done.status === 'completed' && done.completed === siteB.tree.size && done.failed === 0,
          `crawl ended ${JSON.stringify(done).slice(0, 200)}`,
        );
        expectEveryPageOnce(siteB, await allResults(apiClient(apis[1]!), `/v1/crawl/${crawl}/pages?per_page=100`));
        // robots.txt and the favicon check are read once per process (each caches its own), not per page.
        const pageHits = siteB.hits.filter((h) => h.path !== '/robots.txt' && h.path !== '/favicon.ico');
        const perPath = new Map<string, number>();
        for (const h of pageHits) perPath.set(h.path, (perPath.get(h.path) ?? 0) + 1);
        const repeated = [...perPath].filter(([, n]) => n !== 1);
        assert(
          perPath.size === siteB.tree.size && repeated.length === 0,
          `${perPath.size} paths fetched; fetched more than once: ${repeated
            .slice(0, 5)
            .map(([p, n]) => `${p}×${n}`)
            .join(', ')}`,
        );
        const perWorker: Record<string, number> = {};
        for (const h of pageHits) perWorker[h.agent] = (perWorker[h.agent] ?? 0) + 1;
        assert(
          Object.keys(perWorker).length === 2 && Object.keys(perWorker).every((a) => /\(worker-[12]\)$/.test(a)),
          `pages fetched by ${JSON.stringify(perWorker)}`,
        );
        const jobs = Number(await psql(scaleContainers.postgres!, `SELECT count(*) FROM jobs WHERE group_id = '${crawl}'`));
        const workers = Number(await psql(scaleContainers.postgres!, 'SELECT count(*) FROM job_workers'));
        assert(jobs === 0, `${jobs} jobs of the crawl left in the queue`);
        assert(workers === 2, `${workers} processes registered as job workers (the api containers must run none)`);
        const split = Object.entries(perWorker)
          .map(([a, n]) => `${a.match(/worker-\d/)![0]} ${n}`)
          .sort()
          .join(', ');
        note(
          'compose_scale_crawl',
          `${siteB.tree.size} pages in ${seconds.toFixed(1)} s (${(siteB.tree.size / seconds).toFixed(1)} pages/s, 100 ms per page at the site); ${split}`,
        );
        return `${siteB.tree.size} pages in ${seconds.toFixed(1)} s; ${split}; no job left; 2 worker processes registered`;
      });
    }

    await check('compose.scale.yaml stop: every container exits 0 (Trawl on SIGTERM within 10 s), down -v leaves nothing', async () => {
      let detail = '';
      if (Object.keys(scaleContainers).length) {
        // The Trawl containers first, as `down` does (reverse start order), then the database.
        const stops = await Promise.all(trawlServices.map(async (s) => ({ name: s, ...(await stopTimed(scaleContainers[s]!, 30)) })));
        stops.push({ name: 'postgres', ...(await stopTimed(scaleContainers.postgres!, 30)) });
        const bad = stops.filter((s) => s.exitCode !== 0 || s.seconds >= ENGINE_DEFAULT_STOP_S);
        assert(bad.length === 0, bad.map((s) => `${s.name} exit ${s.exitCode} after ${s.seconds.toFixed(1)} s`).join('; '));
        detail = `${stops.map((s) => `${s.name} ${s.seconds.toFixed(1)} s`).join(', ')}; `;
      }
      await composeDown(scale);
      return `${detail}containers, volumes and network removed`;
    });
  } finally {
    await cleanup();
  }
} finally {
  await cleanup();
  await Promise.all([siteA.stop(), siteB.stop(), appServer.stop(true)]);
  if (overrideDir) rmSync(overrideDir, { recursive: true, force: true });
}

for (const [key, value] of numbers) console.log(`number ${key}: ${value}`);
const failed = outcomes.filter((o) => !o.ok).length;
console.log(`image checks: ${outcomes.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
