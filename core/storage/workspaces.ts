/**
 * Workspaces and their API keys. Every stored row belongs to a workspace; the migration creates
 * `default`, which a self-hosted server with one key (or none) uses. Keys are stored only as a
 * sha256 hash: a leaked database does not leak working keys. Looking a key up by its hash needs no
 * constant-time comparison — the caller cannot steer which hash bytes a guess shares with a real one.
 */
import type { Selectable } from 'kysely';
import type { InjectionToken } from 'tsyringe';
import { TrawlError } from '../errors.ts';
import { createTickBatcher } from '../batching.ts';
import type { Storage } from '../services.ts';
import type { WorkspacesTable } from './schema.ts';
import { nowIso, readInt, sha256Hex } from './values.ts';

/** The workspace of a self-hosted server: its one configured key (or no key at all) maps here. */
export const DEFAULT_WORKSPACE = 'default';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export const PLANS = ['free', 'starter', 'growth', 'pro', 'scale'] as const;
export type Plan = (typeof PLANS)[number];
/** What a key may do in its workspace: `admin` keys manage its keys and see its billing; `member` keys call the API only. */
export const KEY_ROLES = ['admin', 'member'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];
export const WORKSPACE_STATUSES = ['active', 'lapsed'] as const;
export type WorkspaceStatus = (typeof WORKSPACE_STATUSES)[number];

/** A workspace as cloud mode sees it: what authentication hands to rate limits, plan checks and charging. */
export interface Account extends Workspace {
  plan: Plan;
  status: WorkspaceStatus;
  credits: number;
  /** The workspace's own requests per minute; null = its plan's. */
  rateLimit: number | null;
  updatedAt: string | null;
}

/** The requests per minute an account may make: its own limit, else its plan's. */
export function rateLimitOf(account: Account, plans: Readonly<Record<Plan, { rateLimitPerMinute: number }>>): number {
  return account.rateLimit ?? plans[account.plan].rateLimitPerMinute;
}

/** The account a key opens, with the key's own id and role. */
export interface KeyAccount extends Account {
  keyId: string;
  keyRole: KeyRole;
}

export interface WorkspaceStore {
  /** Creates the workspace if it does not exist (name defaults to the id) and returns it. */
  ensure(id: string, name?: string): Promise<Workspace>;
  get(id: string): Promise<Workspace | null>;
  /**
   * Stores sha256(key) for the workspace, creating the workspace if needed. Registering the same
   * key again for the same workspace is a no-op (servers re-register their configured key at every
   * boot); a key already owned by another workspace is refused.
   */
  registerApiKey(workspaceId: string, key: string): Promise<void>;
  /**
   * Makes `key` the workspace's only configured key: the server's key at boot, so that changing
   * `TRAWL_API_KEY` stops the previous one from working. Keys made by the admin API or CLI stay.
   */
  setSoleApiKey(workspaceId: string, key: string): Promise<void>;
  /** The workspace owning this key and the key's role, or null for an unknown or revoked key. */
  findWorkspaceByKey(key: string): Promise<(Workspace & { keyId: string; keyRole: KeyRole }) | null>;
  /** The same lookup with the account columns (lookups of concurrent requests share one query). */
  findAccountByKey(key: string): Promise<KeyAccount | null>;
  /** The same by the key's sha256 (what a caller remembers instead of the key). */
  findAccountByHash(keyHash: string): Promise<KeyAccount | null>;
}

export const WorkspaceStoreToken = Symbol('WorkspaceStore') as InjectionToken<WorkspaceStore>;

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

function toWorkspace(row: Pick<Selectable<WorkspacesTable>, 'id' | 'name' | 'created_at'>): Workspace {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

export function toAccount(row: Selectable<WorkspacesTable>): Account {
  return {
    ...toWorkspace(row),
    plan: row.plan as Plan,
    status: row.status as WorkspaceStatus,
    credits: readInt(row.credits),
    rateLimit: row.rate_limit === null ? null : readInt(row.rate_limit),
    updatedAt: row.updated_at,
  };
}

export function createWorkspaceStore(storage: Storage): WorkspaceStore {
  const { db } = storage;
  // Every cloud request looks its key up: the lookups of concurrent requests share one query.
  const accountLookups = createTickBatcher<string, KeyAccount | null>(
    async (hashes) => {
      const rows = await db
        .selectFrom('api_keys')
        .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
        .selectAll('workspaces')
        .select(['api_keys.key_hash as key_hash', 'api_keys.id as key_id', 'api_keys.role as key_role'])
        .where('api_keys.key_hash', 'in', [...new Set(hashes)])
        .where('api_keys.revoked_at', 'is', null)
        .execute();
      const byHash = new Map(rows.map((row) => [row.key_hash, { ...toAccount(row), keyId: row.key_id, keyRole: row.key_role as KeyRole }]));
      return hashes.map((hash) => byHash.get(hash) ?? null);
    },
    { concurrency: storage.dialect === 'postgres' ? 2 : 1 },
  );

  const get = async (id: string): Promise<Workspace | null> => {
    const row = await db.selectFrom('workspaces').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
    return row ? toWorkspace(row) : null;
  };

  const ensure = async (id: string, name?: string): Promise<Workspace> => {
    if (!id) throw new TrawlError('bad_request', 'Workspace id must not be empty');
    await db
      .insertInto('workspaces')
      .values({ id, name: name ?? id, created_at: nowIso() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const workspace = await get(id);
    if (!workspace) throw new TrawlError('internal', `Workspace ${id} vanished right after it was created`);
    return workspace;
  };

  const registerApiKey = async (workspaceId: string, key: string): Promise<void> => {
    if (!key) throw new TrawlError('bad_request', 'API key must not be empty');
    await ensure(workspaceId);
    const keyHash = hashApiKey(key);
    await db
      .insertInto('api_keys')
      .values({ id: crypto.randomUUID(), workspace_id: workspaceId, key_hash: keyHash, created_at: nowIso() })
      .onConflict((oc) => oc.column('key_hash').doNothing())
      .execute();
    const owner = await db.selectFrom('api_keys').select('workspace_id').where('key_hash', '=', keyHash).executeTakeFirst();
    if (owner?.workspace_id !== workspaceId) {
      throw new TrawlError('bad_request', 'This API key is already registered to another workspace');
    }
  };

  return {
    ensure,
    get,
    registerApiKey,

    async setSoleApiKey(workspaceId, key) {
      await registerApiKey(workspaceId, key);
      // Only keys registered by configuration (no display suffix): managed keys are revoked one by one.
      await db
        .deleteFrom('api_keys')
        .where('workspace_id', '=', workspaceId)
        .where('suffix', 'is', null)
        .where('key_hash', '!=', hashApiKey(key))
        .execute();
    },

    async findWorkspaceByKey(key) {
      if (!key) return null;
      const row = await db
        .selectFrom('api_keys')
        .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
        .select(['workspaces.id', 'workspaces.name', 'workspaces.created_at', 'api_keys.id as key_id', 'api_keys.role'])
        .where('api_keys.key_hash', '=', hashApiKey(key))
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? { ...toWorkspace(row), keyId: row.key_id, keyRole: row.role as KeyRole } : null;
    },

    async findAccountByKey(key) {
      return key ? accountLookups.run(hashApiKey(key)) : null;
    },

    findAccountByHash: (keyHash) => accountLookups.run(keyHash),
  };
}
