/**
 * The composition root: the only place that knows how core services are built and wired. It loads
 * nothing by itself; `createTrawl` takes a frozen config, opens storage, registers services under
 * typed tokens (tsyringe factories), runs plugin setup, and returns a handle with `shutdown()`.
 */
import 'reflect-metadata';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import { Pipeline } from './pipeline.ts';
import { PluginRegistry } from './registry.ts';
import { Scraper } from './scrape.ts';
import { Tokens, type BrowserPool, type Storage } from './services.ts';
import { createHttpClient } from './net/http-client.ts';
import { openStorage } from './storage/db.ts';
import { createResultStore } from './storage/results.ts';
import { createBrowserPool } from './browser/pool.ts';
import { createActionCatalog } from './browser/catalog.ts';
import { registerWebhookDeliveries, registerWebhookServices } from './features/webhooks/index.ts';
import { registerJobQueue } from './jobs/index.ts';
import { registerCrawlServices } from './features/crawl/index.ts';
import type { AnyPlugin } from './plugin.ts';
import type { TrawlConfig } from './config-schema.ts';

export const CoreTokens = {
  Registry: Symbol('PluginRegistry') as InjectionToken<PluginRegistry>,
  Pipeline: Symbol('Pipeline') as InjectionToken<Pipeline>,
  Scraper: Symbol('Scraper') as InjectionToken<Scraper>,
} as const;

export interface Trawl {
  readonly config: Readonly<TrawlConfig>;
  readonly container: DependencyContainer;
  readonly logger: Logger;
  readonly registry: PluginRegistry;
  readonly scraper: Scraper;
  readonly storage: Storage;
  readonly version: string;
  shutdown(): Promise<void>;
}

export interface CreateTrawlOptions {
  config: Readonly<TrawlConfig>;
  plugins: readonly AnyPlugin[];
  /** An already open storage (tests run suites on SQLite and Postgres); otherwise opened from config. */
  storage?: Storage;
  logger?: Logger;
}

export const VERSION: string = (await Bun.file(new URL('../package.json', import.meta.url)).json()).version;

export async function createTrawl(options: CreateTrawlOptions): Promise<Trawl> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.log.level);
  // Validate plugin configuration before touching the database: config mistakes fail fast.
  const registry = new PluginRegistry(options.plugins, config);
  const storage = options.storage ?? (await openStorage({
    databaseUrl: config.storage.databaseUrl,
    dataDir: config.storage.dataDir,
    onPoolError: (err) => logger.warn({ err }, 'idle Postgres connection failed'),
  }));
  const ownsStorage = !options.storage;

  const scope = rootContainer.createChildContainer();
  scope.registerInstance(Tokens.Config, config);
  scope.registerInstance(Tokens.Logger, logger);
  scope.registerInstance(Tokens.Storage, storage);
  scope.registerInstance(CoreTokens.Registry, registry);
  scope.register(Tokens.Http, { useFactory: instanceCachingFactory(() => createHttpClient(config.fetch, logger.child({ component: 'http' }))) });
  scope.register(Tokens.Results, { useFactory: instanceCachingFactory((c) => createResultStore(c.resolve(Tokens.Storage))) });
  scope.register(CoreTokens.Pipeline, { useFactory: instanceCachingFactory(() => new Pipeline(registry, logger.child({ component: 'pipeline' }))) });
  registerJobQueue(scope, config, logger);
  registerWebhookServices(scope, config);
  let browser: BrowserPool | undefined; // created on first resolve; launches Chromium on first use
  scope.register(Tokens.Browser, { useFactory: instanceCachingFactory(() => (browser = createBrowserPool(config, logger.child({ component: 'browser' })))) });
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
  } catch (err) {
    if (ownsStorage) await storage.close();
    throw err;
  }
  registerWebhookDeliveries(scope, config, logger);
  registerCrawlServices(scope, { config, logger, scraper: () => scope.resolve(CoreTokens.Scraper) });

  let closed = false;
  return {
    config,
    container: scope,
    logger,
    registry,
    scraper: scope.resolve(CoreTokens.Scraper),
    storage,
    version: VERSION,
    async shutdown() {
      if (closed) return;
      closed = true;
      // Workers first: running jobs finish (or are handed back) while browser and database are still up.
      await scope.resolve(Tokens.Jobs).stop();
      await browser?.close();
      if (ownsStorage) await storage.close();
      await scope.dispose();
    },
  };
}
