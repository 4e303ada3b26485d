/**
 * The typed tokens core services and the framework's own objects are registered under. They sit
 * at the top of core, beside the container that fills them: a token names what it resolves to, so
 * this module may import any part of core, and nothing core builds on imports it back.
 */
import type { Logger } from 'pino';
import type { InjectionToken } from 'tsyringe';
import type { TrawlConfig } from './config-schema.ts';
import type { ActionCatalog } from './plugin.ts';
import type { BrowserPool, EventBus, HttpClient, JobQueue, Mailer, ResultStore, Storage } from './services.ts';
import type { RobotsCache } from './net/robots.ts';
import type { ProxyRouter } from './net/proxies.ts';
import type { WorkerPool } from './workers/pool.ts';
import type { Pipeline } from './pipeline.ts';
import type { ContentRunner } from './content-runner.ts';
import type { PluginRegistry } from './registry.ts';
import type { Scraper } from './scrape.ts';

export const Tokens = {
  Config: Symbol('Config') as InjectionToken<Readonly<TrawlConfig>>,
  Logger: Symbol('Logger') as InjectionToken<Logger>,
  Http: Symbol('HttpClient') as InjectionToken<HttpClient>,
  Storage: Symbol('Storage') as InjectionToken<Storage>,
  Results: Symbol('ResultStore') as InjectionToken<ResultStore>,
  Jobs: Symbol('JobQueue') as InjectionToken<JobQueue>,
  Events: Symbol('EventBus') as InjectionToken<EventBus>,
  /** The notify feature's SMTP sender, for `mailto:` deliveries. */
  Mailer: Symbol('Mailer') as InjectionToken<Mailer>,
  Browser: Symbol('BrowserPool') as InjectionToken<BrowserPool>,
  Actions: Symbol('ActionCatalog') as InjectionToken<ActionCatalog>,
  /** The process's one robots.txt cache (core/net/robots.ts); the crawl feature provides it with its settings. */
  Robots: Symbol('RobotsCache') as InjectionToken<RobotsCache>,
  /** The process's one proxy router (core/net/proxies.ts): pools, rotation, the default proxy. */
  Proxies: Symbol('ProxyRouter') as InjectionToken<ProxyRouter>,
} as const;

/** The framework's own objects, for features and routes that build on them. */
export const CoreTokens = {
  Registry: Symbol('PluginRegistry') as InjectionToken<PluginRegistry>,
  Pipeline: Symbol('Pipeline') as InjectionToken<Pipeline>,
  Scraper: Symbol('Scraper') as InjectionToken<Scraper>,
  /** The content workers' pool (parsing, transforms, formats); /health shows its stats. */
  Workers: Symbol('WorkerPool') as InjectionToken<WorkerPool>,
  /** Where content work runs (the pool when the server has one, else this thread): pages and features' CPU tasks. */
  Content: Symbol('ContentRunner') as InjectionToken<ContentRunner>,
} as const;
