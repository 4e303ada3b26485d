/**
 * End to end, cloud mode on SQLite and (with TEST_DATABASE_URL) Postgres: the /v2 watcher's
 * WebSocket is admitted like an HTTP request — a key revoked a moment ago (while still remembered
 * for ordinary requests) is refused, the upgrade counts against the workspace's rate limit, and one
 * workspace holds at most `server.maxWebSocketsPerWorkspace` sockets while another still connects —
 * and an open watcher closes (1008 `API key revoked`) soon after its key is revoked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { KEY_CHECK_MS, REVOKED_CLOSE } from '../../server/sockets.ts';
import { admin, ADMIN_KEY, bearer } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const PAGE = '<html><head><title>Held</title></head><body><main><p>A page that answers when the test ends.</p></main></body></html>';

interface Tenant {
  id: string;
  key: string;
  keyId: string;
}

for (const database of testDatabases()) {
  describe(`WebSocket admission (${database.name})`, () => {
    let storage: Storage;
    let server: TestServer;
    let site: FixtureSite;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });

    beforeAll(async () => {
      site = startFixtureSite({
        '/held': async () => {
          await held;
          return new Response(PAGE, { headers: { 'content-type': 'text/html' } });
        },
      });
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        overrides: {
          mode: 'cloud',
          adminKey: ADMIN_KEY,
          server: { maxWebSockets: 5, maxWebSocketsPerWorkspace: 2 },
          fetch: { timeoutMs: 30_000 },
        },
      });
    });
    afterAll(async () => {
      release();
      await server.stop();
      await storage.close();
      await site.stop();
    });

    const tenant = async (extra: Record<string, unknown> = {}): Promise<Tenant> => {
      const workspace = await server.post('/admin/workspaces', { name: 'sockets', plan: 'growth', credits: 100, ...extra }, admin);
      const key = await server.post(`/admin/workspaces/${workspace.body.id}/keys`, '', admin);
      expect(key.status).toBe(201);
      return { id: workspace.body.id, key: key.body.key, keyId: key.body.id };
    };
    /** A batch that stays running (its one page is held): what a watcher watches. */
    const heldBatch = async (t: Tenant) => {
      const started = await server.post('/v2/batch/scrape', { urls: [site.at('/held')] }, bearer(t.key));
      expect(started.status).toBe(200);
      return `/v2/batch/scrape/${started.body.id}`;
    };
    /** Opens a watcher as the SDK does (the key as sub-protocol): its first message and its close, or null when the handshake fails. */
    const connect = (path: string, key: string) =>
      new Promise<{ socket: WebSocket; first: any; closed: Promise<CloseEvent> } | null>((resolve) => {
        const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${path}`, key);
        const closed = new Promise<CloseEvent>((done) => socket.addEventListener('close', done));
        socket.onmessage = (event) => resolve({ socket, first: JSON.parse(String(event.data)), closed });
        socket.onerror = () => resolve(null);
      });
    const revoke = async (t: Tenant) =>
      expect((await server.call(`/admin/keys/${t.keyId}`, { method: 'DELETE', headers: admin })).status).toBe(200);

    test('a key revoked a moment ago cannot open a watcher, though ordinary requests still remember it', async () => {
      const t = await tenant();
      const path = await heldBatch(t);
      // Read once, so the key is remembered for ordinary requests.
      expect((await server.get(path, bearer(t.key))).status).toBe(200);
      await revoke(t);
      expect(await connect(path, t.key)).toBeNull();
    });

    test('an open watcher closes with 1008 soon after its key is revoked', async () => {
      const t = await tenant();
      const watcher = await connect(await heldBatch(t), t.key);
      expect(watcher?.first.type).toBe('catchup');
      const revokedAt = performance.now();
      await revoke(t);
      const closed = await watcher!.closed;
      expect({ code: closed.code, reason: closed.reason }).toEqual(REVOKED_CLOSE);
      expect(performance.now() - revokedAt).toBeLessThan(KEY_CHECK_MS * 3);
    });

    test('one workspace holds at most maxWebSocketsPerWorkspace sockets; another still connects', async () => {
      const greedy = await tenant();
      const path = await heldBatch(greedy);
      const open = [await connect(path, greedy.key), await connect(path, greedy.key)];
      expect(open.map((watcher) => watcher?.first.type)).toEqual(['catchup', 'catchup']);
      expect(await connect(path, greedy.key)).toBeNull();
      const other = await tenant();
      const theirs = await connect(await heldBatch(other), other.key);
      expect(theirs?.first.type).toBe('catchup');
      // A closed socket gives its workspace's slot back.
      open[0]!.socket.close();
      await open[0]!.closed;
      let again = null;
      for (let i = 0; i < 50 && !again; i++) again = await connect(path, greedy.key);
      expect(again?.first.type).toBe('catchup');
      for (const watcher of [open[1], theirs, again]) watcher!.socket.close();
    });

    test("an upgrade counts against the workspace's rate limit", async () => {
      // Counts are per calendar minute: stay clear of its edge.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 50_000) await Bun.sleep(60_500 - intoMinute);
      const t = await tenant({ rate_limit: 4 });
      const path = await heldBatch(t);
      const watcher = await connect(path, t.key);
      expect(watcher?.first.type).toBe('catchup');
      watcher!.socket.close();
      // The batch's start, the upgrade and this read: 4 − 3 left.
      const read = await server.get(path, bearer(t.key));
      expect(read.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await server.get(path, bearer(t.key))).status).toBe(200);
      expect(await connect(path, t.key)).toBeNull();
    });
  });
}
