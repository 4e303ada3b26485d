// Workspaces and hashed API keys, on every test database.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import type { Storage } from '../services.ts';
import { testDatabases } from '../../test/helpers/databases.ts';
import { createWorkspaceStore, DEFAULT_WORKSPACE, hashApiKey, type WorkspaceStore } from './workspaces.ts';
import { sha256Hex } from './values.ts';

const KEY = 'trawl_live_0123456789abcdef';

for (const database of testDatabases()) {
  describe(database.name, () => {
    let storage: Storage;
    let workspaces: WorkspaceStore;
    beforeEach(async () => {
      storage = await database.open();
      workspaces = createWorkspaceStore(storage);
    });
    afterEach(() => storage.close());

    test('the default workspace exists from the start', async () => {
      expect(await workspaces.get(DEFAULT_WORKSPACE)).toMatchObject({ id: 'default', name: 'Default' });
    });

    test('ensure creates once and returns the existing workspace afterwards', async () => {
      const created = await workspaces.ensure('team-a', 'Team A');
      expect(created).toMatchObject({ id: 'team-a', name: 'Team A' });
      expect(await workspaces.ensure('team-a', 'Renamed')).toEqual(created);
      await expect(workspaces.ensure('')).rejects.toMatchObject({ code: 'bad_request' });
    });

    test('a registered key finds its workspace; unknown and empty keys find nothing', async () => {
      await workspaces.registerApiKey(DEFAULT_WORKSPACE, KEY);
      expect(await workspaces.findWorkspaceByKey(KEY)).toMatchObject({ id: 'default' });
      expect(await workspaces.findWorkspaceByKey(`${KEY}x`)).toBeNull();
      expect(await workspaces.findWorkspaceByKey('')).toBeNull();
    });

    test('only the sha256 of the key is stored, never the key itself', async () => {
      await workspaces.registerApiKey(DEFAULT_WORKSPACE, KEY);
      const rows = await storage.db.selectFrom('api_keys').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.key_hash).toBe(sha256Hex(KEY));
      expect(hashApiKey(KEY)).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(KEY);
    });

    test('registering creates a missing workspace, and repeating it is a no-op', async () => {
      await workspaces.registerApiKey('team-b', KEY);
      await workspaces.registerApiKey('team-b', KEY);
      expect(await workspaces.findWorkspaceByKey(KEY)).toMatchObject({ id: 'team-b', name: 'team-b' });
      expect(await storage.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(1);
    });

    test('a key owned by one workspace cannot be registered to another', async () => {
      await workspaces.registerApiKey(DEFAULT_WORKSPACE, KEY);
      await expect(workspaces.registerApiKey('team-c', KEY)).rejects.toMatchObject({ code: 'bad_request' });
      expect(await workspaces.findWorkspaceByKey(KEY)).toMatchObject({ id: 'default' });
      await expect(workspaces.registerApiKey(DEFAULT_WORKSPACE, '')).rejects.toMatchObject({ code: 'bad_request' });
    });

    test("a sole key replaces the workspace's other keys and leaves other workspaces alone", async () => {
      await workspaces.registerApiKey(DEFAULT_WORKSPACE, KEY);
      await workspaces.registerApiKey('team-e', `${KEY}-e`);
      await workspaces.setSoleApiKey(DEFAULT_WORKSPACE, `${KEY}-new`);
      await workspaces.setSoleApiKey(DEFAULT_WORKSPACE, `${KEY}-new`);
      expect(await workspaces.findWorkspaceByKey(KEY)).toBeNull();
      expect(await workspaces.findWorkspaceByKey(`${KEY}-new`)).toMatchObject({ id: 'default' });
      expect(await workspaces.findWorkspaceByKey(`${KEY}-e`)).toMatchObject({ id: 'team-e' });
    });

    test('deleting a workspace deletes its keys (foreign keys are enforced on both dialects)', async () => {
      await workspaces.registerApiKey('team-d', KEY);
      await storage.db.deleteFrom('workspaces').where('id', '=', 'team-d').execute();
      expect(await workspaces.findWorkspaceByKey(KEY)).toBeNull();
      expect(await storage.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(0);
    });
  });
}
