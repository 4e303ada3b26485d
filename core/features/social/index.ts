/**
 * The social feature (beta, paid in cloud mode): the `[social]` section, the monitors table, the
 * SocialService for /v1/social, and the `social.check` job — a kind on the shared schedule (its
 * slots are claimed by core/jobs/scheduler.ts), metered at one `socialCheck` (the plan rate) per
 * check. The source is the first enabled `social` plugin.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { JobTokens } from '../../jobs/index.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { checkMeter, CHECK_JOB, createCheckWorker } from './check.ts';
import { socialConfigSchema, type SocialSettings } from './config.ts';
import { socialMonitorsMigration } from './migration.ts';
import { SocialService } from './service.ts';
import { createMonitorStore, type MonitorStore } from './store.ts';
import type { SocialTables } from './tables.ts';

export const SocialTokens = {
  Service: Symbol('SocialService') as InjectionToken<SocialService>,
  Store: Symbol('SocialMonitorStore') as InjectionToken<MonitorStore>,
} as const;

type Ctx = FeatureContext<SocialSettings>;

const sourceOf = (ctx: Ctx) => () => ctx.resolve(CoreTokens.Registry).active('social')[0]?.handler ?? null;

export const socialFeature = defineFeature<SocialSettings>({
  name: 'social',
  description:
    'Social monitors (POST /v1/social/monitors) polled on the shared schedule with social.monitor.matched on new matches, and audience export (POST /v1/social/audience); beta.',
  costs: {
    socialCheck: { credits: 'plan', description: 'Per social monitor check, scheduled or manual.' },
    audiencePage: { credits: 'plan', description: 'Per page of POST /v1/social/audience.' },
  },
  config: socialConfigSchema,
  migrations: { 'social.0001_monitors': socialMonitorsMigration },
  tokens: SocialTokens,
  services: [
    service(SocialTokens.Store, (ctx: Ctx) => createMonitorStore(ctx.resolve(Tokens.Storage).db.withTables<SocialTables>())),
    service(
      SocialTokens.Service,
      (ctx: Ctx) =>
        new SocialService({
          store: ctx.resolve(SocialTokens.Store),
          queue: ctx.resolve(JobTokens.Queue),
          scheduler: ctx.resolve(JobTokens.Scheduler),
          settings: ctx.settings,
          source: sourceOf(ctx),
        }),
    ),
  ],
  jobs: (ctx: Ctx) => {
    const store = ctx.resolve(SocialTokens.Store);
    const pause = (m: { workspace: string; id: string }, reason: string) =>
      ctx.resolve(SocialTokens.Service).pause(m.workspace, m.id, reason);
    const worker = createCheckWorker({
      pause,
      store,
      source: sourceOf(ctx),
      queue: () => ctx.resolve(JobTokens.Queue),
      events: () => (ctx.has(Tokens.Events) ? ctx.resolve(Tokens.Events) : null),
      settings: ctx.settings,
      logger: ctx.logger,
    });
    return [
      {
        kind: CHECK_JOB,
        handler: worker.handle,
        meter: checkMeter(store, pause),
        schedule: { maxAttempts: ctx.settings.maxAttempts },
        options: { concurrency: ctx.settings.concurrency, onFailed: worker.onFailed },
      },
    ];
  },
});
