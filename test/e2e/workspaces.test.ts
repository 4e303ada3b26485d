/**
 * Workspaces over HTTP, on SQLite and Postgres: the configured key is the default workspace's, a
 * key registered to another workspace through the store selects that workspace (its rows are
 * separate), a wrong key is 401 before the body is looked at, a changed configured key revokes
 * the previous one, and without a configured key requests run in the default workspace.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { DEFAULT_WORKSPACE, WorkspaceStoreToken } from '../../core/storage/workspaces.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const MAIN_KEY = 'trawl_test_key_main_0123';
const OTHER_KEY = 'trawl_test_key_other_0123';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const hook = { url: 'http://127.0.0.1:9/hook', events: ['crawl.completed'] };
const hookCount = async (server: TestServer, key?: string) => (await server.get('/v1/webhooks', key ? bearer(key) : {})).body.total;

for (const database of testDatabases()) {
  describe(`${database.name}: keys select workspaces`, () => {
    let storage: Storage;
    let server: TestServer;
    beforeAll(async () => {
      storage = await database.open();
      server = await startTrawlServer({ storage, overrides: { apiKey: MAIN_KEY } });
      await server.trawl.container.resolve(WorkspaceStoreToken).registerApiKey('other', OTHER_KEY);
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
    });

    test("the configured key is stored hashed as the default workspace's key", async () => {
      const keys = await storage.db.selectFrom('api_keys').select(['workspace_id', 'key_hash']).execute();
      expect(keys).toContainEqual({
        workspace_id: DEFAULT_WORKSPACE,
        key_hash: new Bun.CryptoHasher('sha256').update(MAIN_KEY).digest('hex'),
      });
      expect(JSON.stringify(keys)).not.toContain(MAIN_KEY);
    });

    test("another workspace's key sees only that workspace's rows", async () => {
      expect((await server.post('/v1/webhooks', hook, bearer(OTHER_KEY))).status).toBe(201);
      expect(await hookCount(server, OTHER_KEY)).toBe(1);
      expect(await hookCount(server, MAIN_KEY)).toBe(0);
      expect((await server.get('/v1/crawl/history', bearer(OTHER_KEY))).body.total).toBe(0);
      const rows = await storage.db.selectFrom('workspaces').select('id').orderBy('id').execute();
      expect(rows.map((r) => r.id)).toEqual(['default', 'other']);
    });

    test('a wrong or missing key is 401, before a bad body is looked at; public paths stay open', async () => {
      expect((await server.post('/v1/scrape', '{not json', bearer('nope'))).status).toBe(401);
      expect((await server.get('/v1/webhooks')).status).toBe(401);
      expect((await server.get('/health')).status).toBe(200);
      expect((await server.get('/openapi.json')).status).toBe(200);
    });

    test('a changed configured key revokes the previous one; without a key requests use the default workspace', async () => {
      const rotated = await startTrawlServer({ storage, overrides: { apiKey: 'trawl_test_key_rotated_0123' } });
      try {
        expect((await rotated.get('/v1/webhooks', bearer(MAIN_KEY))).status).toBe(401);
        expect((await rotated.get('/v1/webhooks', bearer('trawl_test_key_rotated_0123'))).status).toBe(200);
        expect(await hookCount(rotated, OTHER_KEY)).toBe(1);
      } finally {
        await rotated.stop();
      }
      const open = await startTrawlServer({ storage });
      try {
        for (let i = 0; i < 2; i++) expect((await open.post('/v1/webhooks', hook)).status).toBe(201);
        expect(await hookCount(open)).toBe(2);
        expect(await hookCount(open, 'some-unknown-key')).toBe(2);
        expect(await hookCount(open, OTHER_KEY)).toBe(1);
      } finally {
        await open.stop();
      }
    });
  });
}
