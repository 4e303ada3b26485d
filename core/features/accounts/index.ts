/**
 * The accounts feature, what cloud mode adds to workspaces: the ledger (the `Meter` every metered
 * route and job is charged through), the usage log and its reads, per-minute rate limits shared
 * through the database, and the operator's workspace, key and credit management. Its tables are
 * created in both modes (a self-hosted database can be switched to cloud mode later); its services
 * are used only when the config says so (server/app.ts, core/container.ts).
 */
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { MeterToken } from '../../metering.ts';
import { Tokens } from '../../services.ts';
import { AccountsToken, createAccountsService } from './accounts.ts';
import { createLedger } from './ledger.ts';
import { usageMigration } from './migration.ts';
import { createRateLimiter, RateLimiterToken } from './rate-limit.ts';
import type { AccountTables } from './tables.ts';
import { createUsageReader, UsageToken } from './usage.ts';

const dbOf = (ctx: FeatureContext<unknown>) => ctx.resolve(Tokens.Storage).db.withTables<AccountTables>();

export const AccountTokens = { Accounts: AccountsToken, Usage: UsageToken, RateLimiter: RateLimiterToken, Meter: MeterToken } as const;

export const accountsFeature = defineFeature({
  name: 'accounts',
  description: 'Cloud mode: workspace plans and keys, credits charged per declared unit, the usage log, rate limits by plan.',
  migrations: { 'accounts.0001_usage': usageMigration },
  tokens: AccountTokens,
  services: [
    service(AccountsToken, (ctx) => createAccountsService(dbOf(ctx))),
    service(UsageToken, (ctx) => createUsageReader(dbOf(ctx))),
    service(RateLimiterToken, (ctx) => createRateLimiter(dbOf(ctx))),
    service(MeterToken, (ctx) => createLedger(dbOf(ctx), ctx.config)),
  ],
});
