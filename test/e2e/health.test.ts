/**
 * GET /health's verdict, each state produced for real: ok on a healthy server; degraded with
 * Chromium missing (the browser fetcher enabled, the executable not there); degraded with the job
 * queue stalled (an API-only process, no worker process anywhere, a job long due); down with 503
 * when the database is gone (Postgres behind a TCP proxy that is cut; SQLite closed under the server).
 */
import { afterEach, describe, expect, test } from 'bun:test';
import type { Socket, TCPSocketListener } from 'bun';
import { Tokens } from '../../core/tokens.ts';
import { openStorage } from '../../core/storage/db.ts';
import { builtinFeatures } from '../../core/features/index.ts';
import { featureMigrations } from '../../core/feature-migrations.ts';
import { postgresTestUrl, randomSchemaName, testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { sql } from 'kysely';

const servers: TestServer[] = [];
const start = async (options: Parameters<typeof startTrawlServer>[0] = {}) => {
  const server = await startTrawlServer(options);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

test('ok: database, browser, queue and workers reported', async () => {
  const trawl = await start();
  const res = await trawl.get('/health');
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('ok');
  expect(res.body.reason).toBeUndefined();
  expect(res.body.database.status).toBe('ok');
  expect(res.body.browser).toMatchObject({ enabled: true, available: true, launched: false, active_contexts: 0 });
  expect(res.body.queue).toMatchObject({ status: 'ok', depth: 0, due: 0, workers_here: true });
  expect(res.body.queue.workers_alive).toBeGreaterThanOrEqual(1);
  expect(res.body.workers).toHaveProperty('busy');
});

test('degraded: Chromium missing while the browser fetcher is enabled', async () => {
  const trawl = await start({ overrides: { browser: { executablePath: '/nonexistent/chromium' } } });
  const res = await trawl.get('/health');
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('degraded');
  expect(res.body.reason).toStartWith(
    'browser unavailable: Browser rendering needs Chromium, which is not installed at /nonexistent/chromium',
  );
  expect(res.body.browser).toMatchObject({ enabled: true, available: false, launched: false });
  // With the browser fetcher switched off, a missing Chromium is nobody's problem.
  const without = await start({
    overrides: {
      browser: { executablePath: '/nonexistent/chromium' },
      plugins: { fetcher: { browser: false }, format: { screenshot: false } },
    },
  });
  expect((await without.get('/health')).body.status).toBe('ok');
});

test('degraded: the job queue is stalled (jobs due and no worker process alive, then waiting past the limit)', async () => {
  const trawl = await start({ overrides: { role: 'api', health: { queueLagSeconds: 60 } } });
  const jobs = trawl.trawl.container.resolve(Tokens.Jobs);
  await jobs.enqueue({ kind: 'crawl.page', workspace: 'default', payload: {}, runAt: new Date(Date.now() - 5_000) });
  let res = await trawl.get('/health');
  expect([res.status, res.body.status]).toEqual([200, 'degraded']);
  expect(res.body.reason).toBe('job queue stalled: 1 due job(s) and no worker process alive');
  expect(res.body.queue).toMatchObject({ status: 'stalled', depth: 1, due: 1, workers_alive: 0, workers_here: false });
  expect(res.body.queue.oldest_due_lag_seconds).toBeGreaterThanOrEqual(5);

  // A worker process is alive but the oldest due job has waited past health.queueLagSeconds.
  const worker = await start({ storage: trawl.trawl.storage, overrides: { role: 'worker' } });
  await worker.trawl.container
    .resolve(Tokens.Jobs)
    .enqueue({ kind: 'no.handler', workspace: 'default', payload: {}, runAt: new Date(Date.now() - 120_000) });
  worker.trawl.container.resolve(Tokens.Jobs).start();
  for (let i = 0; i < 100 && res.body.queue.workers_alive === 0; i++) {
    await Bun.sleep(20);
    res = await trawl.get('/health');
  }
  expect(res.body.queue.workers_alive).toBe(1);
  expect(res.body.reason).toMatch(/^job queue stalled: the oldest due job has waited 1\d\d(\.\d)? s \(health\.queueLagSeconds 60\)$/);
});

/** A TCP proxy in front of Postgres that can be cut, as a database host going away would. */
function tcpProxy(target: URL): { port: number; cut(): void } {
  const pairs = new Set<Socket<{ peer?: Socket<any> }>>();
  const listener: TCPSocketListener<{ peer?: Socket<any>; pending: Uint8Array[] }> = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      async open(client) {
        client.data = { pending: [] };
        pairs.add(client);
        client.data.peer = await Bun.connect({
          hostname: target.hostname,
          port: Number(target.port || 5432),
          socket: { data: (_s, chunk) => void client.write(chunk), close: () => void client.end(), error: () => void client.end() },
        });
        for (const chunk of client.data.pending.splice(0)) client.data.peer.write(chunk);
      },
      data(client, chunk) {
        if (client.data.peer) client.data.peer.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        client.data.peer?.end();
        pairs.delete(client);
      },
    },
  });
  return {
    port: listener.port,
    cut() {
      listener.stop(true);
      for (const client of pairs) {
        client.data.peer?.terminate();
        client.terminate();
      }
    },
  };
}

describe('down: the database is gone', () => {
  for (const database of testDatabases()) {
    test(database.name, async () => {
      if (database.name === 'sqlite') {
        const storage = await database.open();
        const trawl = await start({ storage });
        expect((await trawl.get('/health')).body.status).toBe('ok');
        await storage.close();
        const res = await trawl.get('/health');
        expect([res.status, res.body.status, res.body.reason, res.body.database.status]).toEqual([
          503,
          'down',
          'database unreachable',
          'unreachable',
        ]);
        return;
      }
      const target = new URL(postgresTestUrl!);
      const proxy = tcpProxy(target);
      const proxied = new URL(postgresTestUrl!);
      proxied.host = `127.0.0.1:${proxy.port}`;
      const schema = randomSchemaName();
      const storage = await openStorage({
        databaseUrl: proxied.href,
        dataDir: ':memory:',
        schema,
        poolSize: 2,
        migrations: featureMigrations(builtinFeatures),
        onPoolError: () => {},
      });
      try {
        const trawl = await start({ storage });
        expect((await trawl.get('/health')).body.status).toBe('ok');
        proxy.cut();
        const res = await trawl.get('/health');
        expect([res.status, res.body.status, res.body.database.status]).toEqual([503, 'down', 'unreachable']);
        expect(res.body.reason).toStartWith('database unreachable');
        expect(res.body.queue.status).toBe('unknown');
      } finally {
        const cleanup = await openStorage({
          databaseUrl: postgresTestUrl!,
          dataDir: ':memory:',
          schema,
          poolSize: 1,
          migrations: featureMigrations(builtinFeatures),
        });
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(cleanup.db);
        await cleanup.close();
      }
    });
  }
});
