/**
 * The results feature: the `[results]` section (retention and the per-answer size cap), the
 * service that keeps billed calls' answers (outputs.ts) and the job that deletes expired outputs
 * (retention.ts). The results table itself is core's (core/storage/results.ts): the scrape cache,
 * the results sink and maps write it too.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { resultsConfigSchema, type ResultsSettings } from './config.ts';
import { createRunOutputs, type RunOutputs } from './outputs.ts';
import { resultsPruneJob, resultsRetentionMigration, RESULTS_PRUNE_JOB } from './retention.ts';

export const ResultsTokens = {
  Outputs: Symbol('RunOutputs') as InjectionToken<RunOutputs>,
} as const;

type Ctx = FeatureContext<ResultsSettings>;

export const resultsFeature = defineFeature<ResultsSettings>({
  name: 'results',
  description: "Stored outputs: every billed call's answer (cloud mode), bounded in size, and the retention of every stored output.",
  config: resultsConfigSchema,
  migrations: { 'results.0001_retention': resultsRetentionMigration },
  tokens: ResultsTokens,
  services: [
    service(ResultsTokens.Outputs, (ctx: Ctx) => {
      // The same rule as the scrape cache's and the map's: stored only while the results sink runs.
      const stores = ctx
        .resolve(CoreTokens.Registry)
        .providers('sink:results')
        .some((p) => p.enabled);
      return createRunOutputs(stores ? ctx.resolve(Tokens.Results) : null, ctx.settings.maxOutputBytes, ctx.logger);
    }),
  ],
  jobs: (ctx: Ctx) => [
    {
      kind: RESULTS_PRUNE_JOB,
      handler: resultsPruneJob(ctx.resolve(Tokens.Storage).db, ctx.settings.retentionDays, ctx.logger),
      schedule: true,
    },
  ],
});
