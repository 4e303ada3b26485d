/**
 * `bun run cli admin …`: the operator's commands, run against the server's database (the same
 * config: DATABASE_URL, TRAWL_DATA_DIR, TRAWL_CONFIG) without a server. They do what the admin API
 * does, through the same service and the same validation; flags are parsed into the admin API's
 * bodies, so a bad value gets the same message naming the flag.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { z } from 'zod';
import { loadConfig } from '../core/config.ts';
import type { TrawlConfig } from '../core/config-schema.ts';
import { TrawlError } from '../core/errors.ts';
import { createAccountsService, type AccountsService } from '../core/features/accounts/accounts.ts';
import type { AccountTables } from '../core/features/accounts/tables.ts';
import { builtinFeatures } from '../core/features/index.ts';
import { createLogger } from '../core/logger.ts';
import { openStorage } from '../core/storage/db.ts';
import { describeZodError } from '../core/validation.ts';
import { builtinPlugins } from '../plugins/index.ts';
import { createKeySchema, createWorkspaceSchema, grantSchema, presentKey, presentWorkspace, updateWorkspaceSchema } from '../server/routes/admin.ts';

export const ADMIN_USAGE = `Usage: bun run cli admin <command>
  workspace create --name NAME --plan PLAN [--credits N] [--rate-limit PER_MINUTE]   prints the new workspace's id
  workspace list [--json]
  workspace show ID                                                                 the workspace and its keys, as JSON
  workspace update ID [--name NAME] [--plan PLAN] [--status active|lapsed] [--rate-limit PER_MINUTE|plan]
  key create --workspace ID [--name NAME]                                           prints the key (shown this once)
  key list --workspace ID [--json]
  key revoke KEY_ID
  credits grant --workspace ID --credits N [--note TEXT]                            prints the new balance
Plans: free, starter, growth, pro, scale. The database is the server's (DATABASE_URL, TRAWL_DATA_DIR).`;

const OPTIONS = {
  name: { type: 'string' }, plan: { type: 'string' }, credits: { type: 'string' }, 'rate-limit': { type: 'string' },
  status: { type: 'string' }, workspace: { type: 'string' }, note: { type: 'string' }, json: { type: 'boolean', default: false },
} as const;

/** Flag names for the body fields they set, for messages. */
const FLAGS: Readonly<Record<string, string>> = { name: '--name', plan: '--plan', credits: '--credits', rate_limit: '--rate-limit', status: '--status', note: '--note' };

class UsageError extends Error {}

function parse<S extends z.ZodType>(schema: S, input: Record<string, unknown>): z.output<S> {
  const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const parsed = schema.safeParse(clean);
  if (!parsed.success) throw new UsageError(describeZodError(parsed.error, clean, (field) => FLAGS[field] ?? field));
  return parsed.data;
}

/** A number flag as a number (the schema then checks its range); text that is not one stays text, so the message names it. */
const number = (value: string | undefined) => (value === undefined ? undefined : /^-?\d+$/.test(value.trim()) ? Number(value) : value);
const rateLimit = (value: string | undefined) => (value === 'plan' ? null : number(value));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

async function run(accounts: AccountsService, plans: TrawlConfig['plans'], argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const [group, action, target] = positionals;
  const need = (value: string | undefined, what: string) => value ?? (() => { throw new UsageError(`Missing ${what}`); })();
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  switch (`${group} ${action}`) {
    case 'workspace create': {
      const body = parse(createWorkspaceSchema, { name: values.name, plan: values.plan, credits: number(values.credits), rate_limit: number(values['rate-limit']) });
      return (await accounts.createWorkspace({ name: body.name, plan: body.plan, credits: body.credits, rateLimit: body.rate_limit ?? null })).id;
    }
    case 'workspace list': {
      const { items } = await accounts.listWorkspaces({ offset: 0, limit: 100_000 });
      if (values.json) return json(items.map((a) => presentWorkspace(a, plans)));
      const rows = items.map((a) => [a.id, a.name, a.plan, a.status, String(a.credits), String(a.rateLimit ?? plans[a.plan].rateLimitPerMinute)]);
      return table([['ID', 'NAME', 'PLAN', 'STATUS', 'CREDITS', 'PER MINUTE'], ...rows]);
    }
    case 'workspace show': {
      const id = need(target, 'workspace id');
      const account = await accounts.getWorkspace(id);
      if (!account) throw new TrawlError('not_found', `Workspace not found: ${id}`);
      return json({ ...presentWorkspace(account, plans), keys: (await accounts.listKeys(id)).map(presentKey) });
    }
    case 'workspace update': {
      const patch = parse(updateWorkspaceSchema, { name: values.name, plan: values.plan, status: values.status, rate_limit: rateLimit(values['rate-limit']) });
      const account = await accounts.updateWorkspace(need(target, 'workspace id'), { name: patch.name, plan: patch.plan, status: patch.status, rateLimit: patch.rate_limit });
      return json(presentWorkspace(account, plans));
    }
    case 'key create': {
      const body = parse(createKeySchema, { name: values.name });
      return (await accounts.createKey(need(values.workspace, '--workspace'), body.name)).key;
    }
    case 'key list': {
      const keys = await accounts.listKeys(need(values.workspace, '--workspace'));
      if (values.json) return json(keys.map(presentKey));
      const rows = keys.map((k) => [k.id, k.suffix ? `trawl_…${k.suffix}` : '(configured)', k.name ?? '', k.createdAt, k.revokedAt ?? '']);
      return table([['ID', 'KEY', 'NAME', 'CREATED', 'REVOKED'], ...rows]);
    }
    case 'key revoke':
      return `revoked ${(await accounts.revokeKey(need(target, 'key id'))).id}`;
    case 'credits grant': {
      const body = parse(grantSchema, { credits: number(values.credits), note: values.note });
      return String((await accounts.grantCredits(need(values.workspace, '--workspace'), body.credits, body.note)).credits);
    }
    default:
      throw new UsageError(group ? `Unknown admin command: ${positionals.slice(0, 2).join(' ')}` : 'Missing admin command');
  }
}

export async function adminMain(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    console.error(ADMIN_USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let storage;
  try {
    const config = loadConfig({ plugins: builtinPlugins, features: builtinFeatures, env: process.env });
    storage = await openStorage({ databaseUrl: config.storage.databaseUrl, dataDir: config.storage.dataDir, features: builtinFeatures });
    // Audit lines go to stderr: stdout is the command's answer (an id, a key), read by scripts.
    const audit = createLogger(config.log.level, pino.destination({ fd: 2, sync: true })).child({ feature: 'accounts', actor: 'cli' });
    console.log(await run(createAccountsService(storage.db.withTables<AccountTables>(), audit), config.plans, argv));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`${err.message}\n${ADMIN_USAGE}`);
      return 2;
    }
    console.error(err instanceof TrawlError ? err.message : `Unexpected error: ${(err as Error).message}`);
    return 1;
  } finally {
    await storage?.close();
  }
}
