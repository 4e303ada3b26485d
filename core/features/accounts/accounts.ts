/**
 * What an operator does with workspaces (the admin API and `bun run cli admin …` both call this):
 * create, list, show and update workspaces (plan, status, name, own rate limit), create, list and
 * revoke their keys, and grant credits. A key is returned in clear once, by `createKey`; only its
 * hash and display suffix are stored. A workspace's admin keys do the same to its own keys
 * (`ownKeys`, `renameKey`, `revokeOwnKey`, server/routes/v1/account.ts), within rules the operator
 * is above: a workspace keeps at least one admin key and at most `MAX_WORKSPACE_KEYS` working keys.
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
import { hashApiKey, toAccount, type Account, type KeyRole, type Plan, type WorkspaceStatus } from '../../storage/workspaces.ts';
import { nowIso, readInt } from '../../storage/values.ts';
import type { ApiKeysTable } from '../../storage/schema.ts';
import type { AccountsDb } from './tables.ts';
import { generateApiKey, keySuffix } from './keys.ts';

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

export interface KeyInfo {
  id: string;
  workspaceId: string;
  name: string | null;
  /** The key's last four characters (null for a key set by configuration). */
  suffix: string | null;
  role: KeyRole;
  createdAt: string;
  revokedAt: string | null;
}

export interface NewKey {
  name?: string;
  /** Default `admin`. */
  role?: KeyRole;
  /** The workspace's own call, by this key (null: a self-hosted server without one); absent: the operator's. */
  byKey?: string | null;
}

/** Working keys a workspace may hold through self-service (an operator may add more). */
export const MAX_WORKSPACE_KEYS = 100;

export interface AccountsService {
  createWorkspace(input: NewWorkspace): Promise<Account>;
  listWorkspaces(query: { offset: number; limit: number }): Promise<{ items: Account[]; total: number }>;
  getWorkspace(id: string): Promise<Account | null>;
  updateWorkspace(id: string, patch: WorkspacePatch): Promise<Account>;
  /** The key in clear, returned this once. */
  createKey(workspaceId: string, key?: NewKey): Promise<{ key: string; info: KeyInfo }>;
  /** Every key, revoked ones too, oldest first. */
  listKeys(workspaceId: string): Promise<KeyInfo[]>;
  /** Revokes at once; revoking again keeps the first time. */
  revokeKey(id: string): Promise<KeyInfo>;
  /** The workspace's working keys, oldest first, a page of them. */
  ownKeys(workspaceId: string, page: { offset: number; limit: number }): Promise<{ items: KeyInfo[]; total: number }>;
  /** Renames a working key of the workspace (404 for another workspace's or a revoked key). */
  renameKey(workspaceId: string, id: string, name: string | null, byKey?: string | null): Promise<KeyInfo>;
  /**
   * Revokes a key of the workspace at once, refusing (409) its last working admin key and a key set
   * by the server's configuration (which the next start would not bring back); a revoked key again is a no-op.
   */
  revokeOwnKey(workspaceId: string, id: string, byKey?: string | null): Promise<KeyInfo>;
  grantCredits(workspaceId: string, credits: number, note?: string): Promise<Account>;
}

export const AccountsToken = Symbol('AccountsService') as InjectionToken<AccountsService>;

type KeyRow = Pick<ApiKeysTable, 'id' | 'workspace_id' | 'name' | 'suffix' | 'created_at' | 'revoked_at'> & { role: string };
const KEY_COLUMNS = ['id', 'workspace_id', 'name', 'suffix', 'role', 'created_at', 'revoked_at'] as const;

const toKeyInfo = (row: KeyRow): KeyInfo => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  suffix: row.suffix,
  role: row.role as KeyRole,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

/** How long an API process may act on a key's check before reading it again. */
export const CHECKS_REMEMBERED_MS = 100;
/** Until every check read before a change has expired. */
const outlastChecks = () => Bun.sleep(CHECKS_REMEMBERED_MS);

const workspaceNotFound = (id: string) => new TrawlError('not_found', `Workspace not found: ${id.slice(0, 64)}`);
const keyNotFound = (id: string) => new TrawlError('not_found', `Key not found: ${id.slice(0, 64)}`);

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

    async createKey(workspaceId, input = {}) {
      await existing(workspaceId);
      const key = generateApiKey();
      const row = {
        id: crypto.randomUUID(),
        workspace_id: workspaceId,
        key_hash: hashApiKey(key),
        name: input.name ?? null,
        suffix: keySuffix(key),
        role: input.role ?? 'admin',
        created_at: nowIso(),
        revoked_at: null,
      };
      await db.insertInto('api_keys').values(row).execute();
      record('key.create', {
        workspace: workspaceId,
        keyId: row.id,
        suffix: row.suffix,
        name: row.name,
        role: row.role,
        ...by(input.byKey),
      });
      return { key, info: toKeyInfo(row) };
    },

    async listKeys(workspaceId) {
      await existing(workspaceId);
      const rows = await db
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toKeyInfo);
    },

    async revokeKey(id) {
      await db.updateTable('api_keys').set({ revoked_at: nowIso() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      const row = await db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!row) throw new TrawlError('not_found', `Key not found: ${id.slice(0, 64)}`);
      record('key.revoke', { workspace: row.workspace_id, keyId: row.id, suffix: row.suffix, revokedAt: row.revoked_at });
      await outlastChecks();
      return toKeyInfo(row);
    },

    async ownKeys(workspaceId, page) {
      const working = db.selectFrom('api_keys').where('workspace_id', '=', workspaceId).where('revoked_at', 'is', null);
      const [counted, rows] = await Promise.all([
        working.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
        working.select(KEY_COLUMNS).orderBy('created_at').orderBy('id').limit(page.limit).offset(page.offset).execute(),
      ]);
      return { items: rows.map(toKeyInfo), total: readInt(counted.total) };
    },

    async renameKey(workspaceId, id, name, byKey) {
      const updated = await db
        .updateTable('api_keys')
        .set({ name })
        .where('id', '=', id)
        .where('workspace_id', '=', workspaceId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw keyNotFound(id);
      const row = await db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
      record('key.rename', { workspace: workspaceId, keyId: id, suffix: row.suffix, name, ...by(byKey ?? null) });
      return toKeyInfo(row);
    },

    async revokeOwnKey(workspaceId, id, byKey) {
      const { row, changed } = await db.transaction().execute(async (trx) => {
        // A no-op write on the workspace row: revocations in one workspace take turns (Postgres locks
        // the row), so two revoking each other's admin key cannot both see another admin left.
        await trx
          .updateTable('workspaces')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', workspaceId)
          .execute();
        const found = await trx
          .selectFrom('api_keys')
          .select(KEY_COLUMNS)
          .where('id', '=', id)
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirst();
        if (!found) throw keyNotFound(id);
        if (found.revoked_at) return { row: found, changed: false };
        if (found.suffix === null)
          throw new TrawlError('conflict', "This key is set by the server's configuration (TRAWL_API_KEY); change it there");
        if (found.role === 'admin') {
          const admins = await trx
            .selectFrom('api_keys')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .where('role', '=', 'admin')
            .where('revoked_at', 'is', null)
            .executeTakeFirstOrThrow();
          if (readInt(admins.n) <= 1)
            throw new TrawlError('conflict', "This is the workspace's last admin key: create another admin key before revoking it");
        }
        const revokedAt = nowIso();
        await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).execute();
        return { row: { ...found, revoked_at: revokedAt }, changed: true };
      });
      if (!changed) return toKeyInfo(row);
      record('key.revoke', { workspace: workspaceId, keyId: id, suffix: row.suffix, revokedAt: row.revoked_at, ...by(byKey ?? null) });
      await outlastChecks();
      return toKeyInfo(row);
    },

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
