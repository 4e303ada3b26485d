/**
 * `admin …`: the operator's commands, run against the server's database (the same config:
 * DATABASE_URL, TRAWL_DATA_DIR, TRAWL_CONFIG) without a server. They do what the admin API does,
 * through the same service and the same validation; flags are parsed into the admin API's
 * bodies, so a bad value gets the same message naming the flag. Answers go to stdout (an id, a
 * key: read by scripts), audit lines to stderr.
 */
import 'reflect-metadata';
import { Command } from 'commander';
import pino from 'pino';
import type { z } from 'zod';
import { loadConfig } from '../../core/config.ts';
import type { TrawlConfig } from '../../core/config-schema.ts';
import { TrawlError } from '../../core/errors.ts';
import { rateLimitOf } from '../../core/storage/workspaces.ts';
import { createAccountsService, type AccountsService } from '../../core/features/accounts/accounts.ts';
import type { AccountTables } from '../../core/features/accounts/tables.ts';
import { builtinFeatures } from '../../core/features/index.ts';
import { featureMigrations } from '../../core/feature-migrations.ts';
import { createLogger } from '../../core/logger.ts';
import { openStorage } from '../../core/storage/db.ts';
import { describeZodError } from '../../core/validation.ts';
import { builtinPlugins } from '../../plugins/index.ts';
import {
  createKeySchema,
  createWorkspaceSchema,
  grantSchema,
  presentKey,
  presentWorkspace,
  updateWorkspaceSchema,
} from '../../server/wire/admin/workspaces.ts';
import { CliError } from '../errors.ts';
import { emit, json } from '../output.ts';
import { table } from './table.ts';

interface Admin {
  accounts: AccountsService;
  plans: TrawlConfig['plans'];
}

/** Flag names for the body fields they set, for messages. */
const FLAGS: Readonly<Record<string, string>> = {
  name: '--name',
  plan: '--plan',
  credits: '--credits',
  rate_limit: '--rate-limit',
  status: '--status',
  note: '--note',
  role: '--role',
};

function parse<S extends z.ZodType>(schema: S, input: Record<string, unknown>): z.output<S> {
  const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const parsed = schema.safeParse(clean);
  if (!parsed.success)
    throw new CliError(
      describeZodError(parsed.error, clean, (field) => FLAGS[field] ?? field),
      2,
    );
  return parsed.data;
}

/** A number flag as a number (the schema then checks its range); text that is not one stays text, so the message names it. */
const number = (value: string | undefined) => (value === undefined ? undefined : /^-?\d+$/.test(value.trim()) ? Number(value) : value);
const rateLimit = (value: string | undefined) => (value === 'plan' ? null : number(value));

/** Opens the server's database, runs `work` and prints its answer. */
async function withAdmin(work: (admin: Admin) => Promise<string>): Promise<void> {
  const config = loadConfig({ plugins: builtinPlugins, features: builtinFeatures, env: process.env });
  const storage = await openStorage({
    databaseUrl: config.storage.databaseUrl,
    dataDir: config.storage.dataDir,
    migrations: featureMigrations(builtinFeatures),
  });
  try {
    const audit = createLogger(config.log.level, pino.destination({ fd: 2, sync: true })).child({ feature: 'accounts' });
    emit(await work({ accounts: createAccountsService(storage.db.withTables<AccountTables>(), audit, 'cli'), plans: config.plans }));
  } finally {
    await storage.close();
  }
}

type Flags = Record<string, string | boolean | undefined> & { json?: boolean };
const text = (value: unknown) => value as string | undefined;

const workspace = () =>
  new Command('workspace')
    .description('Workspaces: create, list, show, update')
    .addCommand(
      new Command('create')
        .description('Create a workspace; prints its id')
        .option('--name <name>', 'its name (required)')
        .option('--plan <plan>', 'free, starter, growth, pro or scale (required)')
        .option('--credits <n>', 'credits to start with')
        .option('--rate-limit <per-minute>', 'its own request limit')
        .action((f: Flags) =>
          withAdmin(async ({ accounts }) => {
            const body = parse(createWorkspaceSchema, {
              name: f.name,
              plan: f.plan,
              credits: number(text(f.credits)),
              rate_limit: number(text(f.rateLimit)),
            });
            return (
              await accounts.createWorkspace({
                name: body.name,
                plan: body.plan,
                credits: body.credits,
                rateLimit: body.rate_limit ?? null,
              })
            ).id;
          }),
        ),
    )
    .addCommand(
      new Command('list')
        .description('Every workspace, as a table')
        .option('--json', 'as JSON')
        .action((f: Flags) =>
          withAdmin(async ({ accounts, plans }) => {
            const { items } = await accounts.listWorkspaces({ offset: 0, limit: 100_000 });
            if (f.json) return json(items.map((a) => presentWorkspace(a, plans)));
            const rows = items.map((a) => [a.id, a.name, a.plan, a.status, String(a.credits), String(rateLimitOf(a, plans))]);
            return table([['ID', 'NAME', 'PLAN', 'STATUS', 'CREDITS', 'PER MINUTE'], ...rows]);
          }),
        ),
    )
    .addCommand(
      new Command('show')
        .description('A workspace and its keys, as JSON')
        .argument('<id>')
        .action((id: string) =>
          withAdmin(async ({ accounts, plans }) => {
            const account = await accounts.getWorkspace(id);
            if (!account) throw new TrawlError('not_found', `Workspace not found: ${id}`);
            return json({ ...presentWorkspace(account, plans), keys: (await accounts.listKeys(id)).map(presentKey) });
          }),
        ),
    )
    .addCommand(
      new Command('update')
        .description('Change a workspace; prints it')
        .argument('<id>')
        .option('--name <name>')
        .option('--plan <plan>')
        .option('--status <status>', 'active or lapsed')
        .option('--rate-limit <per-minute>', 'a number, or "plan" for the plan\'s')
        .action((id: string, f: Flags) =>
          withAdmin(async ({ accounts, plans }) => {
            const patch = parse(updateWorkspaceSchema, {
              name: f.name,
              plan: f.plan,
              status: f.status,
              rate_limit: rateLimit(text(f.rateLimit)),
            });
            return json(
              presentWorkspace(
                await accounts.updateWorkspace(id, {
                  name: patch.name,
                  plan: patch.plan,
                  status: patch.status,
                  rateLimit: patch.rate_limit,
                }),
                plans,
              ),
            );
          }),
        ),
    );

const key = () =>
  new Command('key')
    .description('API keys: create, list, revoke')
    .addCommand(
      new Command('create')
        .description('Create a key; prints it (shown this once)')
        .requiredOption('--workspace <id>')
        .option('--name <name>')
        .option('--role <role>', 'admin (manages keys, sees billing; the default) or member (calls the API only)')
        .action((f: Flags) =>
          withAdmin(
            async ({ accounts }) =>
              (await accounts.createKey(text(f.workspace)!, parse(createKeySchema, { name: f.name, role: f.role }))).key,
          ),
        ),
    )
    .addCommand(
      new Command('list')
        .description("A workspace's keys, as a table")
        .requiredOption('--workspace <id>')
        .option('--json', 'as JSON')
        .action((f: Flags) =>
          withAdmin(async ({ accounts }) => {
            const keys = await accounts.listKeys(text(f.workspace)!);
            if (f.json) return json(keys.map(presentKey));
            return table([
              ['ID', 'KEY', 'NAME', 'ROLE', 'CREATED', 'REVOKED'],
              ...keys.map((k) => [
                k.id,
                k.suffix ? `trawl_…${k.suffix}` : '(configured)',
                k.name ?? '',
                k.role,
                k.createdAt,
                k.revokedAt ?? '',
              ]),
            ]);
          }),
        ),
    )
    .addCommand(
      new Command('revoke')
        .description('Revoke a key')
        .argument('<key-id>')
        .action((id: string) => withAdmin(async ({ accounts }) => `revoked ${(await accounts.revokeKey(id)).id}`)),
    );

const credits = () =>
  new Command('credits').description('Credits: grant').addCommand(
    new Command('grant')
      .description('Add credits to a workspace; prints the new balance')
      .requiredOption('--workspace <id>')
      .requiredOption('--credits <n>')
      .option('--note <text>')
      .action((f: Flags) =>
        withAdmin(async ({ accounts }) => {
          const body = parse(grantSchema, { credits: number(text(f.credits)), note: f.note });
          return String((await accounts.grantCredits(text(f.workspace)!, body.credits, body.note)).credits);
        }),
      ),
  );

export const adminCommand = () =>
  new Command('admin')
    .description("Manage workspaces, keys and credits in the server's database (cloud mode)")
    .addHelpText(
      'after',
      '\nPlans: free, starter, growth, pro, scale. The database is the server\'s (DATABASE_URL, TRAWL_DATA_DIR).\nExample:\n  bun run cli admin workspace create --name "Acme" --plan starter --credits 1000',
    )
    .addCommand(workspace())
    .addCommand(key())
    .addCommand(credits());
