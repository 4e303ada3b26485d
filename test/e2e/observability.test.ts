/**
 * GET /metrics and request ids end to end. The metrics text is parsed with a Prometheus text-format
 * parser (parse-prometheus-text-format) and read before and after real traffic — histograms through
 * prom-client's own registry, because that parser keeps no labels on histograms: HTTP counts and
 * latencies by route template, pipeline stages, fetch outcomes (an SSRF refusal among them), crawl
 * pages, jobs, webhook deliveries, queue gauges, MCP calls, the process's CPU, heap and event-loop
 * lag; who may read it. Request ids: taken from X-Request-Id when well-formed, generated otherwise,
 * echoed, and found on the pipeline's and the crawl jobs' log lines and on the webhook delivery the
 * crawl caused. The log: one access line per request, one line per finished job and per finished
 * run, and the readable format for a terminal.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Writable } from 'node:stream';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createLogger, prettyLogs } from '../../core/logger.ts';
import { MetricsToken } from '../../core/metrics.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

const KEY = 'observability-key';
const METRICS_TOKEN = 'metrics-token-0123456789';
const page = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Some words about ${title}.</p>${links}</main></body></html>`;

let site: FixtureSite;
let receiver: WebhookReceiver;
let trawl: TestServer;
const logLines: Array<Record<string, any>> = [];

beforeAll(async () => {
  site = startFixtureSite({ '/': page('Home', '<a href="/a">A</a> <a href="/b">B</a>'), '/a': page('Page A'), '/b': page('Page B') });
  receiver = startWebhookReceiver();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  trawl = await startTrawlServer({
    logger: createLogger('debug', sink),
    overrides: {
      apiKey: KEY,
      metrics: { token: METRICS_TOKEN },
      jobs: { pollIntervalMs: 50 },
      webhooks: { signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    },
  });
});

afterAll(async () => {
  await trawl.stop();
  await Promise.all([site.stop(), receiver.stop()]);
});

const auth = { authorization: `Bearer ${KEY}` };
type Family = {
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; count?: string; buckets?: Record<string, string> }>;
};

async function scrapeMetrics(): Promise<Map<string, Family>> {
  const res = await trawl.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toStartWith('text/plain');
  const families = new Map((parsePrometheusTextFormat(res.body) as Family[]).map((family) => [family.name, family]));
  // Histograms: each labelled series' observation count, from the registry the text was rendered from.
  for (const metric of await trawl.trawl.container.resolve(MetricsToken).registry.getMetricsAsJSON()) {
    if (String(metric.type) !== 'histogram') continue;
    const counts = (metric.values as Array<{ metricName?: string; labels: object; value: number }>).filter(
      (v) => v.metricName === `${metric.name}_count`,
    );
    families.set(metric.name, {
      name: metric.name,
      type: 'HISTOGRAM',
      metrics: counts.map((v) => ({ labels: v.labels as Record<string, string>, value: String(v.value) })),
    });
  }
  return families;
}

/** The sample of `name` whose labels include `labels` (a counter's value, a histogram's count), 0 when absent. */
function sample(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name);
  const found = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(found?.value ?? found?.count ?? 0);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await Bun.sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('GET /metrics', () => {
  test('needs the metrics token or an API key', async () => {
    expect((await trawl.get('/metrics')).status).toBe(401);
    expect((await trawl.get('/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await trawl.get('/metrics', auth)).status).toBe(200);
    // The metrics token opens nothing else.
    expect((await trawl.post('/v1/scrape', { url: site.at('/a') }, { authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(401);
  });

  test('counters move with the traffic, labelled by route template and bounded words', async () => {
    const before = await scrapeMetrics();
    for (const path of ['/a', '/b'])
      expect((await trawl.post('/v1/scrape', { url: site.at(path), no_cache: true }, auth)).status).toBe(200);
    expect((await trawl.post('/v1/scrape', { url: 'http://127.0.0.1:1/' }, auth)).status).toBe(422);
    expect((await trawl.post('/v1/scrape', { url: site.at('/a') })).status).toBe(401);
    expect((await trawl.get('/v1/crawl/some-id', auth)).status).toBe(404);
    expect((await trawl.get('/no/such/path', auth)).status).toBe(404);
    const crawl = await trawl.post('/v1/crawl', { url: site.at('/'), webhook_url: receiver.url('/done') }, auth);
    await receiver.waitFor(1, '/done', 5000);
    await until(
      async () =>
        sample(await scrapeMetrics(), 'trawl_webhook_deliveries_total', { outcome: 'delivered' }) >
        sample(before, 'trawl_webhook_deliveries_total', { outcome: 'delivered' }),
      'the delivery count',
    );
    const after = await scrapeMetrics();
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);

    expect(moved('trawl_http_requests_total', { method: 'POST', route: '/v1/scrape', status: '200' })).toBe(2);
    expect(moved('trawl_http_requests_total', { method: 'POST', route: '/v1/scrape', status: '422' })).toBe(1);
    expect(moved('trawl_http_requests_total', { method: 'POST', route: '/v1/scrape', status: '401' })).toBe(1);
    expect(moved('trawl_http_requests_total', { method: 'GET', route: '/v1/crawl/:id', status: '404' })).toBe(1);
    expect(moved('trawl_http_requests_total', { method: 'POST', route: '/v1/crawl', status: '202' })).toBe(1);
    expect(moved('trawl_http_request_duration_seconds', { route: '/v1/scrape', status: '200' })).toBe(2);
    // No URL, id or unknown path is ever a label.
    const routes = new Set(after.get('trawl_http_requests_total')!.metrics.map((m) => m.labels!.route ?? ''));
    expect([...routes].filter((r) => /some-id|no\/such|127\.0\.0\.1/.test(r))).toEqual([]);

    expect(moved('trawl_fetches_total', { client: 'http', outcome: 'ok', reason: '2xx' })).toBeGreaterThanOrEqual(5);
    expect(moved('trawl_fetches_total', { client: 'http', outcome: 'failed', reason: 'connection_refused' })).toBe(1);
    expect(moved('trawl_pipeline_stage_duration_seconds', { stage: 'fetch' })).toBeGreaterThanOrEqual(5);
    expect(moved('trawl_pipeline_stage_duration_seconds', { stage: 'format' })).toBeGreaterThanOrEqual(5);
    expect(moved('trawl_plugin_duration_seconds', { plugin: 'fetcher.http' })).toBeGreaterThanOrEqual(5);
    expect(moved('trawl_scrapes_total', { outcome: 'failed', stage: 'fetch' })).toBe(1);
    expect(moved('trawl_crawl_pages_total', { run: 'crawl', outcome: 'completed' })).toBe(3);
    expect(moved('trawl_jobs_total', { kind: 'crawl.page', outcome: 'done' })).toBe(3);
    expect(moved('trawl_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
    expect(crawl.status).toBe(202);

    // Gauges read at scrape time: this process runs workers, and the queue is drained.
    expect(sample(after, 'trawl_job_workers_alive')).toBe(1);
    expect(sample(after, 'trawl_content_workers')).toBeGreaterThanOrEqual(0);
    expect(after.get('trawl_jobs_lag_seconds')!.type).toBe('GAUGE');
  });
});

test('an SSRF refusal is a fetch outcome of its own', async () => {
  const guarded = await startTrawlServer({ overrides: { fetch: { allowPrivateNetwork: false } } });
  try {
    expect((await guarded.post('/v1/scrape', { url: 'http://10.1.2.3/' })).status).toBe(422);
    const families = new Map(
      (parsePrometheusTextFormat((await guarded.get('/metrics')).body) as Family[]).map((family) => [family.name, family]),
    );
    expect(sample(families, 'trawl_fetches_total', { client: 'http', outcome: 'failed', reason: 'ssrf_refused' })).toBe(1);
    expect(sample(families, 'trawl_http_requests_total', { route: '/v1/scrape', status: '422' })).toBe(1);
  } finally {
    await guarded.stop();
  }
});

describe('request ids', () => {
  test('a well-formed X-Request-Id is echoed; a missing or malformed one is replaced by a generated id', async () => {
    const given = await trawl.post('/v1/scrape', { url: site.at('/a'), no_cache: true }, { ...auth, 'x-request-id': 'trace-abc.123' });
    expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
    expect(logLines.filter((line) => line.request_id === 'trace-abc.123' && line.msg === 'scraped').map((line) => line.url)).toEqual([
      site.at('/a'),
    ]);
    const none = await trawl.post('/v1/scrape', { url: site.at('/a') }, auth);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['has space', 'x'.repeat(129), 'tab\there']) {
      const res = await trawl.post('/v1/scrape', { url: site.at('/a') }, { ...auth, 'x-request-id': bad });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Refused requests carry one too.
    expect((await trawl.get('/v1/plugins')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the id is on the pipeline's and the crawl jobs' log lines and on the webhook delivery", async () => {
    const id = `crawl-${crypto.randomUUID()}`;
    const started = await trawl.post(
      '/v1/crawl',
      { url: site.at('/'), webhook_url: receiver.url('/traced'), scrape_options: { no_cache: true } },
      { ...auth, 'x-request-id': id },
    );
    expect(started.status).toBe(202);
    const [delivery] = await receiver.waitFor(1, '/traced', 5000);
    expect(delivery!.headers['x-request-id']).toBe(id);
    const mine = logLines.filter((line) => line.request_id === id);
    // The crawl's pages were scraped by job workers, each page's pipeline logging under the request's id.
    expect(
      mine
        .filter((line) => line.msg === 'scraped')
        .map((line) => line.url)
        .sort(),
    ).toEqual([site.at('/'), site.at('/a'), site.at('/b')]);
  });
});

describe('process metrics', () => {
  test("CPU, memory, heap and event-loop lag are on /metrics beside Trawl's own", async () => {
    const families = await scrapeMetrics();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(families.get(name)?.metrics.length ?? 0).toBeGreaterThan(0);
    }
    expect(sample(families, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sample(families, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 2 ** 20);
    expect(sample(families, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    // Trawl's own families are still there, once each.
    expect(families.get('trawl_http_requests_total')?.type).toBe('COUNTER');
  });
});

describe('the log', () => {
  const linesOf = (requestId: string) => logLines.filter((line) => line.request_id === requestId);
  /** The access line is written once the answer has gone, so a moment after the client has it. */
  const accessLines = async (requestId: string) => {
    await until(async () => linesOf(requestId).some((line) => line.msg === 'request'), `the access line of ${requestId}`);
    return linesOf(requestId).filter((line) => line.msg === 'request');
  };

  test('one access line per request: method, route template, status, milliseconds, request id, workspace', async () => {
    const id = `access-${crypto.randomUUID()}`;
    expect((await trawl.post('/v1/scrape', { url: site.at('/b'), no_cache: true }, { ...auth, 'x-request-id': id })).status).toBe(200);
    const access = await accessLines(id);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 30,
      component: 'http',
      method: 'POST',
      route: '/v1/scrape',
      status: 200,
      request_id: id,
      workspace: 'default',
    });
    expect(access[0]!.ms).toBeGreaterThan(0);

    // A refused request has its line too, without a workspace; a path parameter stays a template.
    const refused = `refused-${crypto.randomUUID()}`;
    expect((await trawl.post('/v1/scrape', { url: site.at('/b') }, { 'x-request-id': refused })).status).toBe(401);
    expect(await accessLines(refused)).toEqual([expect.objectContaining({ route: '/v1/scrape', status: 401, workspace: null })]);
    const missing = `missing-${crypto.randomUUID()}`;
    expect((await trawl.get('/v1/crawl/no-such-crawl', { ...auth, 'x-request-id': missing })).status).toBe(404);
    expect(await accessLines(missing)).toEqual([expect.objectContaining({ method: 'GET', route: '/v1/crawl/:id', status: 404 })]);
    expect(JSON.stringify(linesOf(missing))).not.toContain('no-such-crawl"');

    // Probes are logged at debug, so a load balancer's health checks do not bury the traffic.
    const probe = `probe-${crypto.randomUUID()}`;
    expect((await trawl.get('/health', { 'x-request-id': probe })).status).toBeLessThan(600);
    expect((await accessLines(probe)).map((line) => [line.route, line.level])).toEqual([['/health', 20]]);
  });

  test('a line per finished job (kind, id, outcome, milliseconds) and one when the crawl is over', async () => {
    const id = `jobs-${crypto.randomUUID()}`;
    const started = await trawl.post(
      '/v1/crawl',
      { url: site.at('/'), scrape_options: { no_cache: true } },
      { ...auth, 'x-request-id': id },
    );
    expect(started.status).toBe(202);
    // The run's end can be logged before the last page job's own line (the notice is queued inside that job).
    const pageLines = () => linesOf(id).filter((line) => line.msg === 'job finished' && line.kind === 'crawl.page');
    await until(
      async () => linesOf(id).some((line) => line.msg === 'crawl completed') && pageLines().length >= 3,
      "the crawl's completion lines",
    );
    const jobs = linesOf(id).filter((line) => line.msg === 'job finished');
    const pages = jobs.filter((line) => line.kind === 'crawl.page');
    expect(pages).toHaveLength(3);
    for (const line of pages) {
      expect(line).toMatchObject({ level: 30, outcome: 'done', attempt: 1 });
      expect(typeof line.job).toBe('string');
      expect(line.ms).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(pages.map((line) => line.job)).size).toBe(3);
    const done = linesOf(id).find((line) => line.msg === 'crawl completed')!;
    expect(done).toMatchObject({ id: started.body.id, kind: 'crawl', workspace: 'default', status: 'completed', completed: 3, failed: 0 });
    expect(done.ms).toBeGreaterThanOrEqual(0);
    // Queued before, completed after: the two ends of the run.
    expect(linesOf(id).findIndex((line) => line.msg === 'crawl queued')).toBeLessThan(linesOf(id).indexOf(done));
  });

  test('a job that fails for good is a warning with its error', async () => {
    const id = `failing-${crypto.randomUUID()}`;
    const started = await trawl.post(
      '/v1/crawl',
      { url: 'http://127.0.0.1:1/', scrape_options: { no_cache: true } },
      { ...auth, 'x-request-id': id },
    );
    expect(started.status).toBe(202);
    const ended = (line: Record<string, any>) => line.msg === 'crawl failed' || line.msg === 'crawl completed';
    await until(
      async () => linesOf(id).some(ended) && linesOf(id).some((line) => line.msg === 'job finished' && line.kind === 'crawl.page'),
      "the crawl's end",
    );
    const finished = linesOf(id).filter((line) => line.msg === 'job finished' && line.kind === 'crawl.page');
    expect(finished.length).toBeGreaterThan(0);
    const last = finished.at(-1)!;
    expect(last).toMatchObject({ level: 40, outcome: 'failed' });
    expect(last.error).toContain('connection refused');
  });

  test('pretty: one readable line per entry for a terminal; auto picks JSON when the output is not one', () => {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    createLogger('info', sink, 'pretty')
      .child({ component: 'http' })
      .info({ method: 'GET', route: '/v1/results', status: 200, ms: 3.2 }, 'request');
    const text = written.join('');
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/INFO.*request/);
    expect(text).toContain('"route":"/v1/results"');
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).not.toContain('"service"');
    expect(prettyLogs('json')).toBe(false);
    expect(prettyLogs('pretty')).toBe(true);
    // Bun's test runner writes to a pipe here, not a terminal.
    expect(prettyLogs('auto')).toBe(Boolean(process.stdout.isTTY));
  });
});
