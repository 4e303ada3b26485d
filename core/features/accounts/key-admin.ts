/**
 * The key half of the accounts service (accounts.ts, whose rules it follows): create, list and
 * revoke a workspace's API keys for the operator, and list, rename and revoke them for the
 * workspace's own admin keys. A key is returned in clear once, by `createKey`; only its hash and
 * display suffix are stored.
 */
import { TrawlError } from '../../errors.ts';
import { hashApiKey, type Account, type KeyRole } from '../../storage/workspaces.ts';
import { nowIso, readInt } from '../../storage/values.ts';
import type { ApiKeysTable } from '../../storage/schema.ts';
import type { AccountsDb } from './tables.ts';
import { generateApiKey, keySuffix } from './keys.ts';

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

export interface KeyAdmin {
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
}

/** What the key operations share with the rest of the accounts service. */
export interface KeyAdminContext {
  /** Writes the audit line of a change. */
  record(action: string, fields: Record<string, unknown>): void;
  /** The workspace, or a 404. */
  existing(id: string): Promise<Account>;
  /** The audit fields of a workspace's own call by `byKey`; none for the operator's (undefined). */
  by(byKey: string | null | undefined): Record<string, unknown>;
  /** Waits until every key check read before a change has expired. */
  outlastChecks(): Promise<void>;
}

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

const keyNotFound = (id: string) => new TrawlError('not_found', `Key not found: ${id.slice(0, 64)}`);

export function createKeyAdmin(db: AccountsDb, ctx: KeyAdminContext): KeyAdmin {
  const { record, existing, by, outlastChecks } = ctx;
  return {
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
  };
}
