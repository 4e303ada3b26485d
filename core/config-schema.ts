/**
 * The shape of Trawl's core configuration outside the plugin tables, with the defaults that
 * `config/default.toml` spells out for people. Plugin tables are checked by the registry against
 * each plugin's own options schema; feature sections (`[crawl]`, `[map]`, …) by their feature's;
 * the `[credits]` units are those core, the features and the formats declare (core/costs.ts).
 * The sections of the machinery a process runs (workers, browser, jobs) are in config-runtime.ts.
 */
import { z } from 'zod';
import { CORE_COSTS, creditsSchema, type CostDeclarations, type DeclaredUnit } from './costs.ts';
import { browserConfig, jobsConfig, workersConfig } from './config-runtime.ts';
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
  workers: workersConfig,
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** `json` for collectors, `pretty` for a person reading a terminal, `auto`: pretty when stdout is a terminal. */
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
    })
    .prefault({}),
  browser: browserConfig,
  jobs: jobsConfig,
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
