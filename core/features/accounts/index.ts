/**
 * The accounts feature, what cloud mode adds to workspaces: the ledger (the `Meter` every metered
 * route and job is charged through), the usage log and its reads, per-minute rate limits shared
 * through the database, and the operator's workspace, key and credit management. Its tables are
 * created in both modes (a self-hosted database can be switched to cloud mode later); its services
 * are used only when the config says so (server/app.ts, core/container.ts).
 */
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import type { InjectionToken } from 'tsyringe';
import { MeterToken, RateLimiterToken } from '../../metering.ts';
import { Tokens } from '../../services.ts';
import { AccountsToken, createAccountsService } from './accounts.ts';
import { createLedger } from './ledger.ts';
import { usageMigration } from './migration.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createBatcher, type Batcher } from './batch.ts';
import type { AccountTables } from './tables.ts';
import { createUsageReader, UsageToken } from './usage.ts';

const dbOf = (ctx: FeatureContext<unknown>) => ctx.resolve(Tokens.Storage).db.withTables<AccountTables>();
/** One batcher per process: rate-limit counts and charges of every request share its transactions. */
const BatcherToken = Symbol('AccountsBatcher') as InjectionToken<Batcher>;

export const AccountTokens = { Accounts: AccountsToken, Usage: UsageToken, RateLimiter: RateLimiterToken, Meter: MeterToken } as const;

export const accountsFeature = defineFeature({
  name: 'accounts',
  description: 'Cloud mode: workspace plans and keys, credits charged per declared unit, the usage log, rate limits by plan.',
  migrations: { 'accounts.0001_usage': usageMigration },
  tokens: AccountTokens,
  services: [
    service(AccountsToken, (ctx) => createAccountsService(dbOf(ctx))),
    service(UsageToken, (ctx) => createUsageReader(dbOf(ctx))),
    service(BatcherToken, (ctx) => createBatcher(dbOf(ctx), ctx.resolve(Tokens.Storage).dialect)),
    service(RateLimiterToken, (ctx) => createRateLimiter(ctx.resolve(BatcherToken))),
    service(MeterToken, (ctx) => createLedger(dbOf(ctx), ctx.resolve(BatcherToken), ctx.config)),
  ],
});
