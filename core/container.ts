/**
 * The composition root: the only place that knows how core services are built and wired. It loads
 * nothing by itself; `createTrawl` takes a frozen config and the plugin and feature lists, opens
 * and migrates storage, registers core and feature services under typed tokens (tsyringe
 * factories), runs plugin setup, registers the features' job handlers, and returns a handle with
 * `shutdown()`. It loops over the features it is given and imports none.
 */
import 'reflect-metadata';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import { Metrics, MetricsToken } from './metrics.ts';
import { FaviconCheck } from './net/favicon.ts';
import { Pipeline } from './pipeline.ts';
import { ContentRunner, createContentPool, warmContentPool } from './content-runner.ts';
import type { PluginListRef } from './content-task.ts';
import type { WorkerPool } from './workers/pool.ts';
import { PluginRegistry } from './registry.ts';
import { Scraper } from './scrape.ts';
import type { BrowserPool, Storage } from './services.ts';
import { CoreTokens, Tokens } from './tokens.ts';
import { checkProxyReferences, ProxyRouter } from './net/proxies.ts';
import { createHttpClient, type HttpClientHooks } from './net/http-client.ts';
import { privateNetworkHint } from './net/address-guard.ts';
import { openStorage } from './storage/db.ts';
import { createResultStore } from './storage/results.ts';
import { createBrowserPool } from './browser/pool.ts';
import { createActionCatalog } from './browser/catalog.ts';
import { JobTokens, registerJobQueue } from './jobs/index.ts';
import { meteredJob, MeterToken } from './metering.ts';
import { ExtractService } from './llm/extract/service.ts';
import { LlmService } from './llm/service.ts';
import { SummarizeService } from './llm/summarize/service.ts';
import { LlmTokens } from './llm/tokens.ts';
import type { AnyPlugin } from './plugin.ts';
import type { AnyFeature, FeatureContext } from './feature.ts';
import { featureMigrations } from './feature-migrations.ts';
import type { TrawlConfig } from './config-schema.ts';
import { createWorkspaceStore, DEFAULT_WORKSPACE, WorkspaceStoreToken } from './storage/workspaces.ts';

export interface Trawl {
  readonly config: Readonly<TrawlConfig>;
  readonly container: DependencyContainer;
  readonly logger: Logger;
  readonly registry: PluginRegistry;
  readonly scraper: Scraper;
  readonly storage: Storage;
  readonly features: readonly AnyFeature[];
  readonly version: string;
  shutdown(): Promise<void>;
}

export interface CreateTrawlOptions {
  config: Readonly<TrawlConfig>;
  plugins: readonly AnyPlugin[];
  /** The feature list (core/features/index.ts, or more in tests): their services, migrations and jobs. */
  features: readonly AnyFeature[];
  /** An already open storage (tests run suites on SQLite and Postgres); otherwise opened from config. */
  storage?: Storage;
  logger?: Logger;
  /**
   * Where content workers import `plugins` from (server/boot.ts hands in plugins/index.ts). Without
   * it the content stages run on the calling thread: a worker could not rebuild a list built in code.
   */
  pluginList?: PluginListRef;
  /** Start the content workers at boot instead of on the first pages (a long-running server). */
  warmWorkers?: boolean;
  /**
   * Tests only: the HTTP client's hooks (an address policy that lets one loopback address play a
   * public web server while the SSRF guard is on). Production never sets them.
   */
  httpHooks?: HttpClientHooks;
  /**
   * Implementations of core interfaces that live outside core, by token: the server hands in its
   * wire formats' shapes of run webhooks (core/features/crawl/hooks.ts), which workers need too.
   */
  instances?: ReadonlyArray<readonly [InjectionToken<any>, unknown]>;
}

export const VERSION: string = (await Bun.file(new URL('../package.json', import.meta.url)).json()).version;

export async function createTrawl(options: CreateTrawlOptions): Promise<Trawl> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.log.level, undefined, config.log.format);
  // Validate plugin configuration before touching the database: config mistakes fail fast.
  const registry = new PluginRegistry(options.plugins, config);
  const { features } = options;
  const storage =
    options.storage ??
    (await openStorage({
      databaseUrl: config.storage.databaseUrl,
      dataDir: config.storage.dataDir,
      migrations: featureMigrations(features),
      onPoolError: (err) => logger.warn({ err }, 'idle Postgres connection failed'),
    }));
  const ownsStorage = !options.storage;
  // A storage handed in may have been migrated for fewer features; a no-op otherwise.
  if (!ownsStorage) await storage.migrate(featureMigrations(features));

  const scope = rootContainer.createChildContainer();
  const metrics = new Metrics();
  scope.registerInstance(MetricsToken, metrics);
  scope.registerInstance(Tokens.Config, config);
  scope.registerInstance(Tokens.Logger, logger);
  scope.registerInstance(Tokens.Storage, storage);
  scope.registerInstance(CoreTokens.Registry, registry);
  // One router for the HTTP client and the browser: rotation and stickiness span both.
  const proxies = new ProxyRouter(config.fetch);
  checkProxyReferences(config, proxies);
  scope.registerInstance(Tokens.Proxies, proxies);
  scope.register(Tokens.Http, {
    useFactory: instanceCachingFactory(() =>
      createHttpClient(
        config.fetch,
        logger.child({ component: 'http' }),
        { refusalHint: privateNetworkHint(config.mode), ...options.httpHooks },
        metrics,
        proxies,
      ),
    ),
  });
  scope.register(Tokens.Results, { useFactory: instanceCachingFactory((c) => createResultStore(c.resolve(Tokens.Storage))) });
  let pool: WorkerPool | undefined; // created on first resolve; workers start on first use
  scope.register(CoreTokens.Workers, { useFactory: instanceCachingFactory(() => (pool = createContentPool(config, options.pluginList))) });
  scope.register(CoreTokens.Content, {
    useFactory: instanceCachingFactory((c) => {
      const workers = options.pluginList ? { pool: c.resolve(CoreTokens.Workers), config } : undefined;
      return new ContentRunner(registry, logger.child({ component: 'pipeline' }), workers);
    }),
  });
  scope.register(CoreTokens.Pipeline, {
    useFactory: instanceCachingFactory(
      (c) =>
        new Pipeline(
          registry,
          logger.child({ component: 'pipeline' }),
          c.resolve(CoreTokens.Content),
          metrics,
          proxies.poolNames(),
          new FaviconCheck(c.resolve(Tokens.Http), { budgetMs: config.scrape.faviconBudgetMs }),
        ),
    ),
  });
  scope.register(WorkspaceStoreToken, { useFactory: instanceCachingFactory((c) => createWorkspaceStore(c.resolve(Tokens.Storage))) });
  registerJobQueue(scope, config, logger);
  // The language model and the engines built on it serve formats, routes and features alike.
  scope.register(LlmTokens.Service, {
    useFactory: instanceCachingFactory(
      () => new LlmService({ registry, settings: config.llm, logger: logger.child({ component: 'llm' }) }),
    ),
  });
  scope.register(LlmTokens.Extract, {
    useFactory: instanceCachingFactory(
      (c) => new ExtractService({ scraper: c.resolve(CoreTokens.Scraper), llm: c.resolve(LlmTokens.Service) }),
    ),
  });
  scope.register(LlmTokens.Summarize, {
    useFactory: instanceCachingFactory(
      (c) => new SummarizeService({ scraper: c.resolve(CoreTokens.Scraper), llm: c.resolve(LlmTokens.Service) }),
    ),
  });
  for (const [token, instance] of options.instances ?? []) scope.registerInstance(token, instance);
  const contexts = features.map((feature) => featureContext(scope, feature, config, logger));
  features.forEach((feature, i) => {
    const ctx = contexts[i]!;
    scope.registerInstance(feature.settingsToken, ctx.settings);
    for (const entry of feature.services ?? [])
      scope.register(entry.token, { useFactory: instanceCachingFactory(() => entry.create(ctx)) });
  });
  let browser: BrowserPool | undefined; // created on first resolve; launches Chromium on first use
  scope.register(Tokens.Browser, {
    useFactory: instanceCachingFactory(
      () => (browser = createBrowserPool(config, logger.child({ component: 'browser' }), { proxies }, metrics)),
    ),
  });
  scope.register(Tokens.Actions, { useFactory: instanceCachingFactory(() => createActionCatalog(registry)) });
  scope.register(CoreTokens.Scraper, {
    useFactory: instanceCachingFactory((c) => {
      const storesResults = registry.providers('sink:results').some((p) => p.enabled);
      return new Scraper(registry, c.resolve(CoreTokens.Pipeline), storesResults ? c.resolve(Tokens.Results) : null, config, logger);
    }),
  });

  try {
    await registry.setup((plugin) => ({
      logger: logger.child({ plugin: plugin.id }),
      config,
      resolve: (token) => scope.resolve(token),
    }));
    // The configured key is the default workspace's key (its only one, so a changed key revokes the old).
    if (config.apiKey) await scope.resolve(WorkspaceStoreToken).setSoleApiKey(DEFAULT_WORKSPACE, config.apiKey);
  } catch (err) {
    if (ownsStorage) await storage.close();
    throw err;
  }
  metrics.sources.browser = () => browser?.stats() ?? null;
  metrics.sources.workers = () => pool?.stats() ?? null;
  metrics.sources.queue = () => scope.resolve(Tokens.Jobs).stats();
  if (options.warmWorkers && options.pluginList) warmContentPool(scope.resolve(CoreTokens.Workers), logger);
  const jobs = scope.resolve(Tokens.Jobs);
  const meter = config.mode === 'cloud' && scope.isRegistered(MeterToken, true) ? scope.resolve(MeterToken) : null;
  features.forEach((feature, i) => {
    for (const job of feature.jobs?.(contexts[i]!) ?? []) {
      // Cloud mode charges declared jobs through the registered Meter; self-hosted runs them as they are.
      const handler = job.meter && meter ? meteredJob(job.handler, job.meter, meter, metrics, logger) : job.handler;
      jobs.handle(job.kind, handler, job.options);
      if (job.schedule) scope.resolve(JobTokens.Scheduler).register(job.kind, job.schedule === true ? {} : job.schedule);
    }
  });

  let closed = false;
  return {
    config,
    container: scope,
    logger,
    registry,
    scraper: scope.resolve(CoreTokens.Scraper),
    storage,
    features,
    version: VERSION,
    async shutdown() {
      if (closed) return;
      closed = true;
      // Workers first: running jobs finish (or are handed back) while browser and database are still up.
      await scope.resolve(Tokens.Jobs).stop();
      // Pending usage rows and the credits this process holds go back while the database is up.
      await meter?.close().catch((err) => logger.error({ err }, 'could not give back held credits'));
      await browser?.close();
      pool?.close();
      if (ownsStorage) await storage.close();
      await scope.dispose();
    },
  };
}

function featureContext(
  scope: DependencyContainer,
  feature: AnyFeature,
  config: Readonly<TrawlConfig>,
  logger: Logger,
): FeatureContext<unknown> {
  if (feature.config && config[feature.name] === undefined) {
    throw new Error(`Feature "${feature.name}" has no [${feature.name}] section: load the config with the same feature list`);
  }
  return {
    config,
    settings: feature.settings(config),
    logger: logger.child({ feature: feature.name }),
    resolve: (token) => scope.resolve(token),
    has: (token) => scope.isRegistered(token, true),
  };
}
