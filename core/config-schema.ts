/**
 * The shape of Trawl's configuration outside the plugin tables, with the defaults that
 * `config/default.toml` spells out for people. Plugin tables are checked by the registry against
 * each plugin's own options schema.
 */
import { z } from 'zod';

const pluginEntry = z.union([z.boolean(), z.record(z.string(), z.unknown())]);

export const configSchema = z.strictObject({
  apiKey: z.string().min(1).optional(),
  /** What this process runs: the HTTP API, the job workers, or both (`--role`, TRAWL_ROLE). */
  role: z.enum(['api', 'worker', 'all']).default('all'),
  server: z.strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(3000),
    maxBodyBytes: z.number().int().positive().default(1_048_576),
  }).prefault({}),
  storage: z.strictObject({
    dataDir: z.string().min(1).default('./data'),
    databaseUrl: z.string().min(1).optional(),
    cacheTtlSeconds: z.number().int().min(0).default(3600),
  }).prefault({}),
  fetch: z.strictObject({
    allowPrivateNetwork: z.boolean().default(false),
    timeoutMs: z.number().int().positive().default(30_000),
    maxRedirects: z.number().int().min(0).max(50).default(10),
    maxBodyBytes: z.number().int().positive().default(20 * 1024 * 1024),
    userAgent: z.string().min(1).default('TrawlBot/0.1 (+self-hosted)'),
    headers: z.record(z.string(), z.string()).default({}),
    /** Test-only host override, like curl's --resolve: `"a.site.test" = "127.0.0.1"`. */
    resolve: z.record(z.string(), z.string()).default({}),
  }).prefault({}),
  scrape: z.strictObject({
    /** Whole-scrape time limit (fetch + extraction); a request's `timeout` overrides it. */
    timeoutMs: z.number().int().positive().default(60_000),
  }).prefault({}),
  log: z.strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  }).prefault({}),
  browser: z.strictObject({
    /** Debian's package; Trawl never downloads a browser. */
    executablePath: z.string().min(1).default('/usr/bin/chromium'),
    /** Jobs rendering at once (a context each, plus one warm spare); further jobs wait for a free one. */
    maxContexts: z.number().int().min(1).max(64).default(4),
    /** Open the next job's context ahead, so it does not wait for a renderer to start (one extra context). */
    warmSpare: z.boolean().default(true),
    /** A browser that has served this many pages is replaced (Chromium grows with use). */
    recycleAfterPages: z.number().int().min(1).default(200),
    /** Limit for one job's use of the browser, on top of the scrape's own time limit. */
    jobTimeoutMs: z.number().int().positive().default(60_000),
    launchTimeoutMs: z.number().int().positive().default(30_000),
    /** Resource types not loaded at all: faster, but screenshots lack them. */
    blockResources: z.array(z.enum(['image', 'font', 'media'])).default([]),
    /** Extra Chromium flags, after Trawl's own. */
    args: z.array(z.string().min(1)).default([]),
  }).prefault({}),
  webhooks: z.strictObject({
    timeoutMs: z.number().int().positive().default(10_000),
    /** Delivery attempts per message, the first included. */
    maxAttempts: z.number().int().min(1).max(20).default(8),
    /** After failed attempt n the next waits retryBaseMs·2^(n-1), capped at retryMaxMs, scaled by a random 50–150 %. */
    retryBaseMs: z.number().int().positive().default(30_000),
    retryMaxMs: z.number().int().positive().default(6 * 3600_000),
    concurrency: z.number().int().min(1).max(64).default(4),
    maxPerWorkspace: z.number().int().min(1).default(50),
    /** `whsec_<base64>`: signs deliveries to a crawl's `webhook_url`, which has no registration of its own. */
    signingSecret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must look like whsec_<base64>').optional(),
    /** Encrypts stored registration secrets (AES-256-GCM); must be the same on every process. */
    secretKey: z.string().min(16).optional(),
  }).prefault({}),
  map: z.strictObject({
    /** Sitemap and feed documents fetched per request, indexes included. */
    maxSitemaps: z.number().int().min(1).max(1000).default(50),
    /** Nesting of sitemap indexes followed below the first level. */
    maxSitemapDepth: z.number().int().min(0).max(10).default(3),
    /** Cap on each sitemap after decompression; parsing costs ~0.15 s and tens of MB per 1 MB. */
    maxSitemapBytes: z.number().int().positive().default(20 * 1024 * 1024),
    /** Whole-request deadline; what was found by then is returned. */
    timeoutMs: z.number().int().positive().default(30_000),
  }).prefault({}),
  jobs: z.strictObject({
    /** A claimed job is another worker's to take once its lease lapses (renewed while it runs). */
    leaseSeconds: z.number().int().min(1).max(3600).default(30),
    /** How often an idle worker looks for due jobs (local enqueues wake it at once). */
    pollIntervalMs: z.number().int().min(10).max(60_000).default(500),
    /** Runs per job before it fails, unless its kind or the job says otherwise. */
    maxAttempts: z.number().int().min(1).max(100).default(5),
    /** Retry n waits retryBaseMs·2^(n-1), capped at retryMaxMs, scaled by a random 50–150 %. */
    retryBaseMs: z.number().int().min(1).default(1000),
    retryMaxMs: z.number().int().min(1).default(300_000),
    /** On shutdown, running jobs get this long to finish before they are released to other workers. */
    shutdownGraceMs: z.number().int().min(0).default(10_000),
  }).prefault({}),
  crawl: z.strictObject({
    /** Crawl and batch pages scraped at once per worker process. */
    concurrency: z.number().int().min(1).max(256).default(8),
    /** Pages of one host fetched at once per worker process. */
    perHostConcurrency: z.number().int().min(1).max(256).default(4),
    /** Minimum gap between two fetches from one host; a larger robots.txt Crawl-delay wins. */
    perHostDelayMs: z.number().int().min(0).max(600_000).default(0),
    /** A robots.txt Crawl-delay above this is capped to it. */
    maxCrawlDelaySeconds: z.number().min(0).max(3600).default(30),
    /** Tries per page before it is recorded as failed (transient errors, HTTP 429 and 5xx). */
    maxAttempts: z.number().int().min(1).max(20).default(3),
    defaultMaxDepth: z.number().int().min(0).default(10),
    maxDepthLimit: z.number().int().min(0).max(10_000).default(100),
    defaultMaxPages: z.number().int().min(1).default(100),
    maxPagesLimit: z.number().int().min(1).max(10_000_000).default(10_000),
    /** URLs accepted by one POST /v1/batch. */
    batchMaxUrls: z.number().int().min(1).max(100_000).default(1000),
    /** How long a fetched robots.txt is trusted (per worker process). */
    robotsCacheSeconds: z.number().int().min(0).default(3600),
  }).prefault({}),
  plugins: z.record(z.string(), z.record(z.string(), pluginEntry)).default({}),
});

export type TrawlConfig = z.output<typeof configSchema>;
export type PluginEntry = z.output<typeof pluginEntry>;
