/**
 * The shape of Trawl's core configuration outside the plugin tables, with the defaults that
 * `config/default.toml` spells out for people. Plugin tables are checked by the registry against
 * each plugin's own options schema; feature sections (`[crawl]`, `[map]`, …) by their feature's;
 * the `[credits]` units are those core, the features and the formats declare (core/costs.ts).
 */
import { availableParallelism, totalmem } from 'node:os';
import { z } from 'zod';
import { CORE_COSTS, creditsSchema, type CostDeclarations, type DeclaredUnit } from './costs.ts';
import { llmConfigSchema } from './llm/config.ts';
import { proxyPools, proxyUrl } from './net/proxy-schema.ts';

const pluginEntry = z.union([z.boolean(), z.record(z.string(), z.unknown())]);

const perMinute = z.number().int().min(1).max(1_000_000);
const plan = (rateLimitPerMinute: number, planRate?: number) =>
  z
    .strictObject({
      /** Requests per minute for a workspace on the plan (a workspace's own limit wins). */
      rateLimitPerMinute: perMinute.default(rateLimitPerMinute),
      /** Credits of one plan-rated unit (social monitor check, audience page); absent on a plan without paid features. */
      planRate: planRate === undefined ? z.number().int().min(0).optional() : z.number().int().min(0).default(planRate),
      /** Watches per workspace on the plan (POST /v1/watch; one more is a 409). */
      maxWatches: z.number().int().min(0).default(20),
      /** The plan's floor of a watch's interval_minutes. */
      minWatchIntervalMinutes: z.number().int().min(1).default(60),
    })
    .prefault({});

export const configSchema = z.strictObject({
  /** `self-hosted`: one key (or none), no credits or plans; `cloud`: workspaces with plans, credits, usage and rate limits (TRAWL_MODE). */
  mode: z.enum(['self-hosted', 'cloud']).default('self-hosted'),
  apiKey: z.string().min(1).optional(),
  /** Guards the admin API under /admin/… (TRAWL_ADMIN_KEY); unset, the admin API is not served. */
  adminKey: z.string().min(16, 'must be at least 16 characters').optional(),
  /** What this process runs: the HTTP API, the job workers, or both (`--role`, TRAWL_ROLE). */
  role: z.enum(['api', 'worker', 'all']).default('all'),
  server: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(3000),
      maxBodyBytes: z.number().int().positive().default(1_048_576),
      /** The address clients reach this server at (behind a proxy), for absolute URLs in answers; default: the request's own. */
      publicUrl: z.url({ protocol: /^https?$/ }).optional(),
      /** WebSocket connections open at once (the /v2 watchers); more are answered 503. */
      maxWebSockets: z.number().int().min(0).max(100_000).default(100),
      /** WebSocket connections one workspace may hold open at once, so that one cannot take every slot; more are answered 503. */
      /**
       * The request line (path and query) and headers together, in bytes: past it the answer is a JSON
       * 431. Bun refuses past its own `--max-http-header-size` (16 KiB unless the start command raises
       * it; `bun start` and the image raise it to 64 KiB) with a bare 431 before Trawl sees the request.
       */
      maxHeaderBytes: z.number().int().min(1024).max(1_048_576).default(16_384),
      maxWebSocketsPerWorkspace: z.number().int().min(0).max(100_000).default(20),
    })
    .prefault({}),
  storage: z
    .strictObject({
      dataDir: z.string().min(1).default('./data'),
      databaseUrl: z.string().min(1).optional(),
      cacheTtlSeconds: z.number().int().min(0).default(3600),
    })
    .prefault({}),
  fetch: z
    .strictObject({
      allowPrivateNetwork: z.boolean().default(false),
      timeoutMs: z.number().int().positive().default(30_000),
      maxRedirects: z.number().int().min(0).max(50).default(10),
      maxBodyBytes: z
        .number()
        .int()
        .positive()
        .default(20 * 1024 * 1024),
      userAgent: z.string().min(1).default('TrawlBot/0.1 (+self-hosted)'),
      headers: z.record(z.string(), z.string()).default({}),
      /** Test-only host override, like curl's --resolve: `"a.site.test" = "127.0.0.1"`. */
      resolve: z.record(z.string(), z.string()).default({}),
      /** The proxy every fetch of the web goes through unless a request says otherwise (TRAWL_FETCH_PROXY). */
      proxy: proxyUrl.optional(),
      /** Named proxy pools a request picks with `proxy: "<name>"`; `"auto"` tries them in this order after a block. */
      proxies: proxyPools.default({}),
    })
    .prefault({}),
  /**
   * The /v2 wire format: what Firecrawl's `proxy` values mean on this server, each "none", "auto" or a
   * pool name. `basic` unset: the default route (`fetch.proxy`, or direct); `stealth`/`enhanced` unset: a 400.
   * A /v2 request without `proxy` gets `auto`, as on Firecrawl.
   */
  v2: z
    .strictObject({
      proxies: z
        .strictObject({
          basic: z.string().min(1).optional(),
          auto: z.string().min(1).default('auto'),
          stealth: z.string().min(1).optional(),
          enhanced: z.string().min(1).optional(),
        })
        .prefault({}),
    })
    .prefault({}),
  scrape: z
    .strictObject({
      /** Whole-scrape time limit (fetch + extraction); a request's `timeout` overrides it. */
      timeoutMs: z.number().int().positive().default(60_000),
      /**
       * How long a scrape waits for the first check of an origin's `/favicon.ico` (core/net/favicon.ts)
       * before answering `favicon: null`; the check goes on and serves that origin's later pages.
       */
      faviconBudgetMs: z.number().int().min(0).max(10_000).default(300),
      /**
       * CPU time for matching a request's include/exclude selectors on one page (plugins/transform/selectors):
       * past it the content worker is replaced and the scrape answers 422 naming the selectors and this setting.
       */
      selectorBudgetMs: z.number().int().positive().max(60_000).default(2000),
    })
    .prefault({}),
  /** The content workers (core/workers): parsing, transforms and formats off the server thread. */
  workers: z
    .strictObject({
      /**
       * Worker threads; 0 runs the content stages on the server thread (no isolation, no deadline
       * kill). Default one core fewer than the machine has (at least 1): the server thread fetches,
       * stores and answers for every page, and a worker for each core made it compete with them
       * (on 2 cores: more CPU per page and a higher resident peak, for no more pages a second).
       */
      size: z
        .number()
        .int()
        .min(0)
        .max(256)
        .default(Math.max(1, availableParallelism() - 1)),
      /** Pages that may wait for a worker; one more is a 503 with Retry-After. */
      maxQueue: z.number().int().min(0).default(256),
      /** Heavy pages (a body of `heavyBytes` or more) processed at once; default half the workers, at least 1. */
      maxHeavy: z.number().int().min(1).optional(),
      heavyBytes: z
        .number()
        .int()
        .min(0)
        .default(2 * 1024 * 1024),
      /** A worker whose JavaScript heap passes this is stopped (422); 0 = no limit. */
      memoryLimitMb: z.number().int().min(0).default(2048),
      /**
       * The process's resident memory budget: past it, the busy page most likely to blame is stopped
       * (422); 0 = none. Default half the machine's memory: a 10 MB page with every format legitimately
       * takes ~1.3 GB, so a fixed small default would refuse real pages on a big machine.
       */
      maxRssMb: z
        .number()
        .int()
        .min(0)
        .default(Math.floor(totalmem() / 2 / 2 ** 20)),
      /**
       * A busy worker runs a full garbage collection after a page at most this often (ms), and so
       * does the server thread after a worker's reply, so memory follows what the threads hold;
       * 0 = when the runtime decides.
       */
      collectEveryMs: z.number().int().min(0).default(500),
      /**
       * Worker threads run at this nice value (Linux): when cores are short, the API thread and a
       * browser rendering for a request go first and the workers take what is left. 0 = same priority.
       */
      nice: z.number().int().min(0).max(19).default(5),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** `json` for collectors, `pretty` for a person reading a terminal, `auto`: pretty when stdout is a terminal. */
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
    })
    .prefault({}),
  browser: z
    .strictObject({
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
      /**
       * Body bytes of one response the guard proxy passes to Chromium; a longer one is cut, and a page
       * whose own document is cut answers 422. Stricter than `fetch.maxBodyBytes`: a renderer needs
       * hundreds of bytes of memory per byte of HTML.
       */
      maxResponseBytes: z
        .number()
        .int()
        .positive()
        .default(8 * 1024 * 1024),
      /** Body bytes of all a page's responses together (plain HTTP bodies and TLS tunnels); past it the page answers 422. */
      maxPageBytes: z
        .number()
        .int()
        .positive()
        .default(32 * 1024 * 1024),
      /**
       * One renderer process's resident memory ceiling: a tab past it is killed and its page answers
       * 422. Its JavaScript heap is capped at half of it (V8's old space). 0 = none.
       */
      maxRendererMb: z.number().int().min(0).default(1024),
      /** How often the browser's processes are measured while pages render (ms). */
      memorySampleMs: z.number().int().min(10).max(10_000).default(200),
    })
    .prefault({}),
  jobs: z
    .strictObject({
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
      /** How often a process running workers claims due slots of the shared schedule (watches, monitors). */
      scheduleTickSeconds: z.number().int().min(1).max(3600).default(5),
      /** Largest fixed offset a scheduled subject gets (also at most a tenth of its interval), so equal intervals do not fire together. */
      scheduleJitterSeconds: z.number().int().min(0).max(86_400).default(300),
      /** Due slots claimed per statement. */
      scheduleBatch: z.number().int().min(1).max(5000).default(500),
    })
    .prefault({}),
  /** GET /metrics (Prometheus text): readable with an API key, or with this token alone (a scraper needs no workspace key). */
  metrics: z
    .strictObject({
      enabled: z.boolean().default(true),
      token: z.string().min(16, 'must be at least 16 characters').optional(),
    })
    .prefault({}),
  /** What GET /health calls degraded. */
  health: z
    .strictObject({
      /** The job queue is stalled when its oldest due job has waited longer than this (or no worker is alive to run it). */
      queueLagSeconds: z.number().int().min(1).default(60),
    })
    .prefault({}),
  /** The language model (core/llm): which provider answers and the limits of its calls. */
  llm: llmConfigSchema.prefault({}),
  /** Cloud mode: what each plan allows (core/metering.ts). */
  plans: z
    .strictObject({
      free: plan(20),
      starter: plan(120, 5),
      growth: plan(300, 3),
      pro: plan(1000, 2),
      scale: plan(3000, 1),
    })
    .prefault({}),
  /**
   * Cloud mode: the cost table, credits per billable unit. Core, the features and the model formats
   * declare their units (core/costs.ts); routes and job kinds say which a call consumes
   * (core/metering.ts). Here only core's own; buildConfigSchema adds the declared ones.
   */
  credits: creditsSchema([{ owner: 'core', costs: CORE_COSTS }]),
  /** Requests per minute per workspace in self-hosted mode; unset = no limit. Cloud mode limits by plan. */
  rateLimit: z
    .strictObject({
      perMinute: perMinute.optional(),
    })
    .prefault({}),
  plugins: z.record(z.string(), z.record(z.string(), pluginEntry)).default({}),
});

/** Core sections, typed; a feature's section is read through its feature (`crawlFeature.settings(config)`). */
export type TrawlConfig = z.output<typeof configSchema> & { readonly [section: string]: unknown };

/** What buildConfigSchema reads of a plugin: a format's cost unit (`PluginDefinition.cost`). */
interface CostingPlugin {
  kind: string;
  name: string;
  cost?: DeclaredUnit & { unit: string };
}

/** What buildConfigSchema reads of a feature (core/feature.ts): its section's schema and its cost units. */
interface ConfiguredFeature {
  name: string;
  config?: z.ZodType;
  costs?: CostDeclarations;
}

/**
 * The core schema extended with one section per feature, each validated by that feature's schema,
 * and the `[credits]` section of the units core, the features and the plugins declare.
 */
export function buildConfigSchema(features: readonly ConfiguredFeature[], plugins: readonly CostingPlugin[] = []) {
  const sections: Record<string, z.ZodType> = {};
  for (const feature of features) {
    if (!feature.config) continue;
    if (feature.name in configSchema.shape || feature.name in sections)
      throw new Error(`Feature "${feature.name}": config section [${feature.name}] is already taken`);
    sections[feature.name] = feature.config.prefault({});
  }
  const credits = creditsSchema([
    { owner: 'core', costs: CORE_COSTS },
    ...features.map((feature) => ({ owner: `Feature "${feature.name}"`, costs: feature.costs })),
    ...plugins
      .filter((plugin) => plugin.kind === 'format')
      .map(({ kind, name, cost }) => ({ owner: `Plugin ${kind}.${name}`, costs: cost && { [cost.unit]: cost } })),
  ]);
  return configSchema.extend({ ...sections, credits });
}
export type PluginEntry = z.output<typeof pluginEntry>;
