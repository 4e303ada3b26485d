/**
 * The lead feature (POST /v1/lead, POST /v1/lead/batch, GET /v1/lead/batch/{id}): the `[lead]`
 * section, the lead-batch tables, the LeadService (one company URL → one lead, by scraping it and
 * its likely pages with the `lead` format) and the LeadBatchService with the `lead.item` and
 * `lead.notify` job handlers.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { JobTokens } from '../../jobs/index.ts';
import { LlmTokens } from '../../llm/tokens.ts';
import { LeadBatchService } from './batch.ts';
import { leadConfigSchema, type LeadSettings } from './config.ts';
import { leadBatchesMigration } from './migration.ts';
import { LeadService } from './service.ts';
import { createLeadStore, ITEM_JOB, NOTIFY_JOB } from './store.ts';
import type { LeadTables } from './tables.ts';

export const LeadTokens = {
  Service: Symbol('LeadService') as InjectionToken<LeadService>,
  Batches: Symbol('LeadBatchService') as InjectionToken<LeadBatchService>,
} as const;

type Ctx = FeatureContext<LeadSettings>;

export const leadFeature = defineFeature<LeadSettings>({
  name: 'lead',
  description:
    'Company leads (POST /v1/lead) and lead batches (POST /v1/lead/batch): a site read through the `lead` format, its likely pages included.',
  costs: {
    lead: { credits: 2, description: 'POST /v1/lead, per call.' },
    leadBatchItem: { credits: 2, description: 'Per URL of POST /v1/lead/batch.' },
  },
  config: leadConfigSchema,
  migrations: { 'lead.0001_batches': leadBatchesMigration },
  tokens: LeadTokens,
  services: [
    service(
      LeadTokens.Service,
      (ctx: Ctx) =>
        new LeadService({ scraper: ctx.resolve(CoreTokens.Scraper), llm: ctx.resolve(LlmTokens.Service), settings: ctx.settings }),
    ),
    service(
      LeadTokens.Batches,
      (ctx: Ctx) =>
        new LeadBatchService({
          store: createLeadStore(ctx.resolve(Tokens.Storage).db.withTables<LeadTables>()),
          queue: ctx.resolve(JobTokens.Queue),
          leads: ctx.resolve(LeadTokens.Service),
          settings: ctx.settings,
          fetch: ctx.config.fetch,
          logger: ctx.logger,
        }),
    ),
  ],
  jobs: (ctx: Ctx) => {
    const batches = ctx.resolve(LeadTokens.Batches);
    const events = () => (ctx.has(Tokens.Events) ? ctx.resolve(Tokens.Events) : null);
    return [
      {
        kind: ITEM_JOB,
        handler: batches.handleItem,
        meter: batches.meter,
        options: { concurrency: ctx.settings.batchConcurrency, onFailed: batches.onItemFailed },
      },
      { kind: NOTIFY_JOB, handler: batches.notifier(events), options: { concurrency: 1 } },
    ];
  },
});
