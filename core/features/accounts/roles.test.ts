// Key roles on every test database: migration accounts.0003_key_roles makes existing keys admin, a
// workspace's own key management stays in its workspace, keeps one admin key even under concurrent
// revocations, and leaves the key set by configuration alone.
import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { Kysely } from 'kysely';
import type { Storage } from '../../services.ts';
import { createWorkspaceStore, DEFAULT_WORKSPACE, type WorkspaceStore } from '../../storage/workspaces.ts';
import { nowIso } from '../../storage/values.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { createAccountsService, type AccountsService } from './accounts.ts';
import { keyRolesMigration } from './migration.ts';
import type { AccountTables } from './tables.ts';

for (const database of testDatabases()) {
  describe(`key roles (${database.name})`, () => {
    let storage: Storage;
    let accounts: AccountsService;
    let workspaces: WorkspaceStore;
    beforeEach(async () => {
      storage = await database.open();
      accounts = createAccountsService(storage.db.withTables<AccountTables>());
      workspaces = createWorkspaceStore(storage);
    });
    afterEach(() => storage.close());

    test('accounts.0003_key_roles: keys made before it become admin keys', async () => {
      const db = storage.db as Kysely<any>;
      await keyRolesMigration.down!(db);
      const workspace = await accounts.createWorkspace({ name: 'Old', plan: 'starter' });
      await db
        .insertInto('api_keys')
        .values({
          id: 'old-key',
          workspace_id: workspace.id,
          key_hash: 'h'.repeat(64),
          name: 'from before',
          suffix: 'abcd',
          created_at: nowIso(),
        })
        .execute();
      await keyRolesMigration.up(db);
      expect((await accounts.listKeys(workspace.id)).map((k) => [k.id, k.role])).toEqual([['old-key', 'admin']]);
    });

    test('roles: admin by default, member on request; lookups carry the key id and role', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'growth' });
      const admin = await accounts.createKey(workspace.id, { name: 'ops' });
      const member = await accounts.createKey(workspace.id, { name: 'ci', role: 'member' });
      expect([admin.info.role, member.info.role]).toEqual(['admin', 'member']);
      expect(await workspaces.findAccountByKey(member.key)).toMatchObject({ id: workspace.id, keyId: member.info.id, keyRole: 'member' });
      expect(await workspaces.findWorkspaceByKey(admin.key)).toMatchObject({ id: workspace.id, keyId: admin.info.id, keyRole: 'admin' });
    });

    test('a workspace renames and revokes only its own working keys', async () => {
      const mine = await accounts.createWorkspace({ name: 'Mine', plan: 'growth' });
      const theirs = await accounts.createWorkspace({ name: 'Theirs', plan: 'growth' });
      const a = await accounts.createKey(mine.id);
      const b = await accounts.createKey(mine.id, { role: 'member' });
      const other = await accounts.createKey(theirs.id);
      expect((await accounts.renameKey(mine.id, b.info.id, 'renamed')).name).toBe('renamed');
      expect((await accounts.renameKey(mine.id, b.info.id, null)).name).toBeNull();
      await expect(accounts.renameKey(mine.id, other.info.id, 'x')).rejects.toMatchObject({ code: 'not_found' });
      await expect(accounts.revokeOwnKey(mine.id, other.info.id)).rejects.toMatchObject({ code: 'not_found' });
      const revoked = await accounts.revokeOwnKey(mine.id, b.info.id);
      expect(revoked.revokedAt).not.toBeNull();
      expect((await accounts.revokeOwnKey(mine.id, b.info.id)).revokedAt).toBe(revoked.revokedAt);
      await expect(accounts.renameKey(mine.id, b.info.id, 'x')).rejects.toMatchObject({ code: 'not_found' });
      expect(await accounts.ownKeys(mine.id, { offset: 0, limit: 10 })).toMatchObject({ total: 1, items: [{ id: a.info.id }] });
      expect((await accounts.listKeys(theirs.id)).every((k) => k.revokedAt === null)).toBe(true);
    });

    test('the last admin key stays, even when two admins revoke each other at once', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'growth' });
      const member = await accounts.createKey(workspace.id, { role: 'member' });
      const only = await accounts.createKey(workspace.id);
      await expect(accounts.revokeOwnKey(workspace.id, only.info.id)).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('last admin key'),
      });
      await accounts.revokeOwnKey(workspace.id, member.info.id);
      for (let round = 0; round < 5; round++) {
        const second = await accounts.createKey(workspace.id);
        const [x, y] = await Promise.allSettled([
          accounts.revokeOwnKey(workspace.id, only.info.id),
          accounts.revokeOwnKey(workspace.id, second.info.id),
        ]);
        expect([x.status, y.status].sort()).toEqual(['fulfilled', 'rejected']);
        const left = await accounts.ownKeys(workspace.id, { offset: 0, limit: 10 });
        expect(left.items.map((k) => k.role)).toEqual(['admin']);
        only.info = left.items[0]!;
      }
    });

    test('the key set by configuration is not revoked through the workspace (the next start would not bring it back)', async () => {
      await workspaces.setSoleApiKey(DEFAULT_WORKSPACE, 'configured-key-0123456789');
      await accounts.createKey(DEFAULT_WORKSPACE);
      const configured = (await accounts.listKeys(DEFAULT_WORKSPACE)).find((k) => k.suffix === null)!;
      expect(configured.role).toBe('admin');
      await expect(accounts.revokeOwnKey(DEFAULT_WORKSPACE, configured.id)).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('configuration'),
      });
    });
  });
}
