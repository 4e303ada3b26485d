/**
 * What an operator does with workspaces (the admin API and `bun run cli admin …` both call this):
 * create, list, show and update workspaces (plan, status, name, own rate limit), create, list and
 * revoke their keys, and grant credits. A key is returned in clear once, by `createKey`; only its
 * hash and display suffix are stored. A workspace's admin keys do the same to its own keys
 * (`ownKeys`, `renameKey`, `revokeOwnKey`, server/routes/v1/account.ts), within rules the operator
 * is above: a workspace keeps at least one admin key and at most `MAX_WORKSPACE_KEYS` working keys.
 * The key operations are in key-admin.ts.
 *
 * API processes remember a key's check (valid, and its workspace's plan and status) for at most
 * `CHECKS_REMEMBERED_MS` (ledger.ts); so revoking a key or changing a workspace's plan or status
 * answers only after that long, and from the moment it answers no process accepts the old state.
 *
 * Every change is an audit line on the given logger (`audit: "<what>"`, the ids and values it set;
 * a key only by its id and last four characters), whoever made it: `actor` is the operator's
 * (`admin-api` or `cli`) or `workspace` for a workspace's own admin key (`byKey`: that key's id).
 */
import type { Logger } from 'pino';
import type { InjectionToken } from 'tsyringe';
import { TrawlError } from '../../errors.ts';
import { toAccount, type Account, type Plan, type WorkspaceStatus } from '../../storage/workspaces.ts';
import { nowIso, readInt } from '../../storage/values.ts';
import type { AccountsDb } from './tables.ts';
import { createKeyAdmin, type KeyAdmin } from './key-admin.ts';

export interface NewWorkspace {
  name: string;
  plan: Plan;
  credits?: number;
  rateLimit?: number | null;
}

export interface WorkspacePatch {
  name?: string;
  plan?: Plan;
  status?: WorkspaceStatus;
  /** null: back to the plan's limit. */
  rateLimit?: number | null;
}

/** Working keys a workspace may hold through self-service (an operator may add more). */
export const MAX_WORKSPACE_KEYS = 100;

export interface AccountsService extends KeyAdmin {
  createWorkspace(input: NewWorkspace): Promise<Account>;
  listWorkspaces(query: { offset: number; limit: number }): Promise<{ items: Account[]; total: number }>;
  getWorkspace(id: string): Promise<Account | null>;
  updateWorkspace(id: string, patch: WorkspacePatch): Promise<Account>;
  grantCredits(workspaceId: string, credits: number, note?: string): Promise<Account>;
}

export const AccountsToken = Symbol('AccountsService') as InjectionToken<AccountsService>;

/** How long an API process may act on a key's check before reading it again. */
export const CHECKS_REMEMBERED_MS = 100;
/** Until every check read before a change has expired. */
const outlastChecks = () => Bun.sleep(CHECKS_REMEMBERED_MS);

const workspaceNotFound = (id: string) => new TrawlError('not_found', `Workspace not found: ${id.slice(0, 64)}`);

/** `actor`: who the operator's calls are (`admin-api`, `cli`); a workspace's own calls are `workspace`. */
export function createAccountsService(db: AccountsDb, audit: Logger | null = null, actor = 'admin-api'): AccountsService {
  const record = (action: string, fields: Record<string, unknown>) =>
    audit?.info({ audit: action, actor, ...fields }, `${String(fields.actor ?? actor)}: ${action}`);
  const getWorkspace = async (id: string) => {
    const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : null;
  };
  // undefined: the operator's call; otherwise the workspace's own, by its key (null: a self-hosted server without one).
  const by = (byKey: string | null | undefined) => (byKey === undefined ? {} : { actor: 'workspace', byKey });
  const existing = async (id: string) => (await getWorkspace(id)) ?? Promise.reject(workspaceNotFound(id));

  return {
    getWorkspace,

    async createWorkspace(input) {
      const id = crypto.randomUUID();
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('workspaces')
          .values({
            id,
            name: input.name,
            plan: input.plan,
            status: 'active',
            credits: input.credits ?? 0,
            rate_limit: input.rateLimit ?? null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        if (input.credits) {
          await trx
            .insertInto('credit_grants')
            .values({ id: crypto.randomUUID(), workspace_id: id, credits: input.credits, note: 'initial credits', created_at: now })
            .execute();
        }
      });
      record('workspace.create', {
        workspace: id,
        name: input.name,
        plan: input.plan,
        credits: input.credits ?? 0,
        rateLimit: input.rateLimit ?? null,
      });
      return existing(id);
    },

    async listWorkspaces(query) {
      const [counted, rows] = await Promise.all([
        db
          .selectFrom('workspaces')
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('workspaces')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
      ]);
      return { items: rows.map(toAccount), total: readInt(counted.total) };
    },

    async updateWorkspace(id, patch) {
      const set: Record<string, unknown> = { updated_at: nowIso() };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.plan !== undefined) set.plan = patch.plan;
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.rateLimit !== undefined) set.rate_limit = patch.rateLimit;
      const updated = await db.updateTable('workspaces').set(set).where('id', '=', id).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw workspaceNotFound(id);
      record('workspace.update', { workspace: id, changes: patch });
      if (patch.plan !== undefined || patch.status !== undefined) await outlastChecks();
      return existing(id);
    },

    ...createKeyAdmin(db, { record, existing, by, outlastChecks }),

    async grantCredits(workspaceId, credits, note) {
      await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('workspaces')
          .set((eb) => ({ credits: eb('credits', '+', credits), updated_at: nowIso() }))
          .where('id', '=', workspaceId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw workspaceNotFound(workspaceId);
        await trx
          .insertInto('credit_grants')
          .values({ id: crypto.randomUUID(), workspace_id: workspaceId, credits, note: note ?? null, created_at: nowIso() })
          .execute();
      });
      record('credits.grant', { workspace: workspaceId, credits, note: note ?? null });
      return existing(workspaceId);
    },
  };
}
