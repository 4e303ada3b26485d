/**
 * The watch feature: the `[watch]` section, the watch and snapshot tables, the WatchService for the
 * routes and the dashboard, the feed tokens and change feed (feed.ts), and the `watch.check` job — a
 * kind on the shared schedule (its slots are claimed by core/jobs/scheduler.ts), metered at one
 * `watchCheck` per check in cloud mode — and the announcer (notify.ts) that tells the targets and
 * keeps their delivery outcomes.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { JobTokens } from '../../jobs/index.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { checkMeter, CHECK_JOB, createCheckWorker } from './check.ts';
import { createFeedStore, feedTokensMigration, type FeedStore, type FeedTables } from './feed.ts';
import { watchConfigSchema, type WatchSettings } from './config.ts';
import { watchFiltersMigration } from './migration-filters.ts';
import { watchNotifyMigration } from './migration-notify.ts';
import { createAnnouncer, ORIGIN, type Announcer } from './notify.ts';
import { NotifyTokens } from '../notify/index.ts';
import { watchTablesMigration } from './migration.ts';
import { WatchService } from './service.ts';
import { createWatchStore, type WatchStore } from './store.ts';
import type { WatchTables } from './tables.ts';

export const WatchTokens = {
  Service: Symbol('WatchService') as InjectionToken<WatchService>,
  Store: Symbol('WatchStore') as InjectionToken<WatchStore>,
  Feed: Symbol('WatchFeedStore') as InjectionToken<FeedStore>,
  Announcer: Symbol('WatchAnnouncer') as InjectionToken<Announcer>,
} as const;

type Ctx = FeatureContext<WatchSettings>;

export const watchFeature = defineFeature<WatchSettings>({
  name: 'watch',
  description:
    'Watches (POST /v1/watch): pages re-scraped on a schedule, a snapshot timeline, and watch.changed to webhook_url and the notify targets when a check notifies.',
  costs: { watchCheck: { credits: 1, description: 'Per watch check, scheduled or manual.' } },
  config: watchConfigSchema,
  migrations: {
    'watch.0001_tables': watchTablesMigration,
    'watch.0002_filters': watchFiltersMigration,
    'watch.0003_notify': watchNotifyMigration,
    'watch.0004_feeds': feedTokensMigration,
  },
  tokens: WatchTokens,
  services: [
    service(WatchTokens.Store, (ctx: Ctx) => createWatchStore(ctx.resolve(Tokens.Storage).db.withTables<WatchTables>())),
    service(WatchTokens.Feed, (ctx: Ctx) => createFeedStore(ctx.resolve(Tokens.Storage).db.withTables<FeedTables>())),
    service(
      WatchTokens.Service,
      (ctx: Ctx) =>
        new WatchService({
          store: ctx.resolve(WatchTokens.Store),
          queue: ctx.resolve(JobTokens.Queue),
          scheduler: ctx.resolve(JobTokens.Scheduler),
          settings: ctx.settings,
          logger: ctx.logger,
          content: ctx.resolve(CoreTokens.Content),
          compareTimeoutMs: ctx.config.scrape.timeoutMs,
        }),
    ),
    service(WatchTokens.Announcer, (ctx: Ctx) =>
      createAnnouncer({
        db: ctx.resolve(Tokens.Storage).db.withTables<WatchTables>(),
        events: () => (ctx.has(Tokens.Events) ? ctx.resolve(Tokens.Events) : null),
        notifier: () => (ctx.has(NotifyTokens.Notifier) ? ctx.resolve(NotifyTokens.Notifier) : null),
        server: ctx.config.server,
        logger: ctx.logger,
      }),
    ),
  ],
  jobs: (ctx: Ctx) => {
    const store = ctx.resolve(WatchTokens.Store);
    const announcer = ctx.resolve(WatchTokens.Announcer);
    // Outcomes are reported where deliveries run: in the processes that run jobs, like this one.
    if (ctx.has(Tokens.Events)) ctx.resolve(Tokens.Events).onOutcome(ORIGIN, announcer.record);
    const worker = createCheckWorker({
      store,
      scraper: ctx.resolve(CoreTokens.Scraper),
      announcer,
      settings: ctx.settings,
      logger: ctx.logger,
      content: ctx.resolve(CoreTokens.Content),
      timeoutMs: ctx.config.scrape.timeoutMs,
    });
    return [
      {
        kind: CHECK_JOB,
        handler: worker.handle,
        meter: checkMeter(store),
        schedule: { maxAttempts: ctx.settings.maxAttempts },
        options: { concurrency: ctx.settings.concurrency, onFailed: worker.onFailed },
      },
    ];
  },
});
