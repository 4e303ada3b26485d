/**
 * The accounts feature, what cloud mode adds to workspaces: the ledger (the `Meter` every metered
 * route and job is charged through), the usage log and its reads, per-minute rate limits shared
 * through the database, and the operator's workspace, key and credit management. Its tables are
 * created in both modes (a self-hosted database can be switched to cloud mode later); its services
 * are used only when the config says so (server/app.ts, core/container.ts).
 */
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { MeterToken, RateLimiterToken } from '../../metering.ts';
import { Tokens } from '../../tokens.ts';
import { AccountsToken, createAccountsService } from './accounts.ts';
import { accountsConfigSchema, type AccountsSettings } from './config.ts';
import { createLedger } from './ledger.ts';
import { keyRolesMigration, leasesMigration, usageMigration } from './migration.ts';
import { createRateLimiter } from './rate-limit.ts';
import { WorkspaceStoreToken } from '../../storage/workspaces.ts';
import type { AccountTables } from './tables.ts';
import { createUsageReader, UsageToken } from './usage.ts';

const dbOf = (ctx: FeatureContext<AccountsSettings>) => ctx.resolve(Tokens.Storage).db.withTables<AccountTables>();

export const AccountTokens = { Accounts: AccountsToken, Usage: UsageToken, RateLimiter: RateLimiterToken, Meter: MeterToken } as const;

export const accountsFeature = defineFeature<AccountsSettings>({
  name: 'accounts',
  description:
    'Cloud mode: workspace plans and keys, credits charged per declared unit, the usage log and its retention, rate limits by plan.',
  config: accountsConfigSchema,
  migrations: {
    'accounts.0001_usage': usageMigration,
    'accounts.0002_leases': leasesMigration,
    'accounts.0003_key_roles': keyRolesMigration,
  },
  tokens: AccountTokens,
  services: [
    // Every change made through the admin API or a workspace's own keys is an audit line (the CLI logs its own).
    service(AccountsToken, (ctx) => createAccountsService(dbOf(ctx), ctx.logger, 'admin-api')),
    service(UsageToken, (ctx) => createUsageReader(dbOf(ctx))),
    service(RateLimiterToken, (ctx) => createRateLimiter(dbOf(ctx), ctx.resolve(Tokens.Storage).dialect)),
    service(MeterToken, (ctx) =>
      createLedger({
        db: dbOf(ctx),
        dialect: ctx.resolve(Tokens.Storage).dialect,
        workspaces: ctx.resolve(WorkspaceStoreToken),
        config: ctx.config,
        limiter: ctx.resolve(RateLimiterToken),
        retention: { settings: ctx.settings, logger: ctx.logger },
      }),
    ),
  ],
});
