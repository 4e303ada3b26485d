/**
 * Wires crawls and batches into the composition root: the CrawlService for the routes, and the
 * job handlers — `crawl.page` (page.ts) with per-host politeness, and `crawl.notify`, which
 * announces a finished run as `crawl.completed`, `crawl.failed` or `batch.completed` through the
 * EventBus (resolved when the job runs, so Trawl works without a webhook registry).
 */
import { instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { TrawlConfig } from '../../config-schema.ts';
import type { Scraper } from '../../scrape.ts';
import { Tokens, type ClaimedJob, type EventBus } from '../../services.ts';
import { JobTokens } from '../../jobs/index.ts';
import { RobotsCache } from '../../net/robots.ts';
import { HostGate } from './gate.ts';
import { createPageWorker } from './page.ts';
import { eventPayload } from './present.ts';
import { NOTIFY_JOB } from './record.ts';
import { CrawlService } from './service.ts';
import { createCrawlStore, PAGE_JOB, type CrawlStore } from './store.ts';

export const CrawlTokens = {
  Service: Symbol('CrawlService') as InjectionToken<CrawlService>,
  Store: Symbol('CrawlStore') as InjectionToken<CrawlStore>,
  /** The process's robots.txt cache, with the crawl settings (TTL, Crawl-delay cap); map reads Sitemap lines from it. */
  Robots: Symbol('RobotsCache') as InjectionToken<RobotsCache>,
} as const;

export interface CrawlWiring {
  config: Readonly<TrawlConfig>;
  logger: Logger;
  scraper: () => Scraper;
}

function notifier(store: CrawlStore, events: () => EventBus | null, logger: Logger) {
  return async (job: ClaimedJob): Promise<void> => {
    const run = typeof job.payload.crawl === 'string' ? await store.byId(job.payload.crawl) : null;
    if (!run || run.status === 'cancelled') return;
    const type = run.kind === 'batch' ? 'batch.completed' : run.status === 'failed' ? 'crawl.failed' : 'crawl.completed';
    const bus = events();
    if (!bus) {
      logger.debug({ id: run.id, type }, 'no event bus registered; event not sent');
      return;
    }
    const url = typeof run.request.webhook_url === 'string' ? run.request.webhook_url : undefined;
    await bus.emit({ type, workspace: run.workspace, data: eventPayload(run), ...(url ? { url } : {}) });
  };
}

export function registerCrawlServices(scope: DependencyContainer, wiring: CrawlWiring): void {
  const { config } = wiring;
  const logger = wiring.logger.child({ component: 'crawl' });
  scope.register(CrawlTokens.Store, { useFactory: instanceCachingFactory((c) => createCrawlStore(c.resolve(Tokens.Storage).db)) });
  scope.register(CrawlTokens.Service, {
    useFactory: instanceCachingFactory((c) =>
      new CrawlService({ store: c.resolve(CrawlTokens.Store), queue: c.resolve(JobTokens.Queue), scraper: wiring.scraper(), config, logger })),
  });

  const queue = scope.resolve(JobTokens.Queue);
  const store = scope.resolve(CrawlTokens.Store);
  const http = scope.resolve(Tokens.Http);
  const gate = new HostGate(config.crawl.perHostConcurrency, config.crawl.perHostDelayMs, () => queue.poke([PAGE_JOB]));
  const robots = new RobotsCache(http, {
    userAgent: config.fetch.userAgent,
    ttlMs: config.crawl.robotsCacheSeconds * 1000,
    maxCrawlDelayMs: config.crawl.maxCrawlDelaySeconds * 1000,
  });
  scope.registerInstance(CrawlTokens.Robots, robots);
  const worker = createPageWorker({ db: scope.resolve(Tokens.Storage).db, store, queue, scraper: wiring.scraper(), robots, gate, config: config.crawl, logger });
  queue.handle(PAGE_JOB, worker.handle, { concurrency: config.crawl.concurrency, busyKeys: () => gate.busyHosts(), onFailed: worker.onFailed });
  const events = () => (scope.isRegistered(Tokens.Events, true) ? scope.resolve(Tokens.Events) : null);
  queue.handle(NOTIFY_JOB, notifier(store, events, logger), { concurrency: 2 });
}
