/**
 * Cloud mode across real processes: the operator's CLI (`bun cli/main.ts admin …`) against the
 * database of a running server, end to end, on SQLite and Postgres — workspaces, keys, credits,
 * plan status, key roles and revocation take effect on the server at once — and, on Postgres, one
 * balance charged and one rate limit enforced together by two API processes sharing the database,
 * and a key a workspace revokes through one of them refused by the other at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { postgresTestUrl, postgresProcessDatabase, processDatabases, type ProcessDatabase } from '../helpers/databases.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const PAGE = '<!doctype html><html><head><title>Tides</title></head><body><p>The sea rises and falls twice a day.</p></body></html>';

/** `bun cli/main.ts admin …` with the database's environment. */
async function admin(db: ProcessDatabase, ...args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const child = Bun.spawn(['bun', 'cli/main.ts', 'admin', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...db.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout: stdout.trim(), stderr, exitCode };
}

const cloudServer = (db: ProcessDatabase) => startServerProcess({ env: { ...db.env, TRAWL_MODE: 'cloud' } });
const call = (server: ServerProcess, key: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

let site: FixtureSite;
beforeAll(() => {
  site = startFixtureSite({ '/page': PAGE });
});
afterAll(() => site.stop());

for (const [name, open] of processDatabases()) {
  describe(`the admin CLI against a running server (${name})`, () => {
    let db: ProcessDatabase;
    let server: ServerProcess;
    beforeAll(async () => {
      db = await open();
      server = await cloudServer(db);
    });
    afterAll(async () => {
      await server?.stop();
      await db.cleanup();
    });

    test('workspaces, keys and credits made by the CLI work on the server at once; a revoked key is 401', async () => {
      const created = await admin(
        db,
        'workspace',
        'create',
        '--name',
        'Acme Research',
        '--plan',
        'starter',
        '--credits',
        '2',
        '--rate-limit',
        '50',
      );
      expect(created).toMatchObject({ exitCode: 0 });
      const id = created.stdout;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const made = await admin(db, 'key', 'create', '--workspace', id, '--name', 'ci');
      const key = made.stdout;
      expect(key).toMatch(/^trawl_[A-Za-z0-9_-]{43}$/);

      const listed = await admin(db, 'workspace', 'list');
      expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+PLAN\s+STATUS\s+CREDITS\s+PER MINUTE$/);
      expect(listed.stdout).toMatch(new RegExp(`${id}\\s+Acme Research\\s+starter\\s+active\\s+2\\s+50`));
      const keys = await admin(db, 'key', 'list', '--workspace', id);
      expect(keys.stdout).toContain(`trawl_…${key.slice(-4)}`);
      expect(keys.stdout).not.toContain(key);

      const scraped = await call(server, key, '/v1/scrape', { url: site.at('/page') });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('x-credits-remaining')).toBe('1');
      expect(scraped.headers.get('x-ratelimit-limit')).toBe('50');
      expect((await call(server, key, '/v1/scrape', { url: site.at('/page'), formats: ['text'] })).status).toBe(200);
      expect((await call(server, key, '/v1/scrape', { url: site.at('/page') })).status).toBe(402);

      expect(await admin(db, 'credits', 'grant', '--workspace', id, '--credits', '10')).toMatchObject({ exitCode: 0, stdout: '10' });
      expect((await call(server, key, '/v1/scrape', { url: site.at('/page') })).status).toBe(200);

      expect((await admin(db, 'workspace', 'update', id, '--status', 'lapsed')).exitCode).toBe(0);
      expect((await call(server, key, '/v1/scrape', { url: site.at('/page') })).status).toBe(403);
      expect((await call(server, key, '/v1/results')).status).toBe(200);
      const shown = JSON.parse(
        (await admin(db, 'workspace', 'update', id, '--status', 'active', '--plan', 'growth', '--rate-limit', 'plan')).stdout,
      );
      expect(shown).toMatchObject({ id, plan: 'growth', status: 'active', credits: 9, rate_limit: null, rate_limit_per_minute: 300 });
      expect((await call(server, key, '/v1/scrape', { url: site.at('/page') })).status).toBe(200);

      const keyId = JSON.parse((await admin(db, 'workspace', 'show', id)).stdout).keys[0].id;
      expect(await admin(db, 'key', 'revoke', keyId)).toMatchObject({ exitCode: 0, stdout: `revoked ${keyId}` });
      expect((await call(server, key, '/v1/scrape', { url: site.at('/page') })).status).toBe(401);
      expect((await call(server, key, '/v1/usage')).status).toBe(401);
    }, 60_000);

    test('key create --role member: a key that calls the API and is refused key management and billing', async () => {
      const id = (await admin(db, 'workspace', 'create', '--name', 'Roles', '--plan', 'starter', '--credits', '5')).stdout;
      const member = (await admin(db, 'key', 'create', '--workspace', id, '--name', 'ci', '--role', 'member')).stdout;
      const owner = (await admin(db, 'key', 'create', '--workspace', id)).stdout;
      expect((await admin(db, 'key', 'list', '--workspace', id)).stdout).toMatch(new RegExp(`trawl_…${member.slice(-4)}\\s+ci\\s+member`));
      expect((await call(server, member, '/v1/scrape', { url: site.at('/page') })).status).toBe(200);
      expect((await call(server, member, '/v1/keys')).status).toBe(403);
      expect((await call(server, member, '/v1/usage')).status).toBe(403);
      expect((await call(server, owner, '/v1/keys')).status).toBe(200);
      const bad = await admin(db, 'key', 'create', '--workspace', id, '--role', 'owner');
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('Invalid field --role');
    }, 60_000);

    test('bad commands and values are refused with a message naming the flag, exit code 2; unknown ids exit 1', async () => {
      const plan = await admin(db, 'workspace', 'create', '--name', 'X', '--plan', 'gold');
      expect(plan.exitCode).toBe(2);
      expect(plan.stderr).toContain('Invalid field --plan');
      const credits = await admin(db, 'workspace', 'create', '--name', 'X', '--plan', 'free', '--credits', 'many');
      expect(credits.exitCode).toBe(2);
      expect(credits.stderr).toContain('--credits');
      expect((await admin(db, 'workspace', 'create', '--plan', 'free')).stderr).toContain('Missing required field: --name');
      expect((await admin(db, 'frobnicate', 'now')).exitCode).toBe(2);
      const missing = await admin(db, 'credits', 'grant', '--workspace', 'no-such-workspace', '--credits', '5');
      expect(missing).toMatchObject({ exitCode: 1 });
      expect(missing.stderr).toContain('Workspace not found');
    }, 30_000);
  });
}

if (postgresTestUrl) {
  describe('two API processes sharing Postgres', () => {
    let db: ProcessDatabase;
    const servers: ServerProcess[] = [];
    beforeAll(async () => {
      db = await postgresProcessDatabase(postgresTestUrl!);
      servers.push(await cloudServer(db), await cloudServer(db));
    });
    afterAll(async () => {
      for (const server of servers) await server.stop();
      await db.cleanup();
    });

    test('charge one balance together: 50 concurrent scrapes over both against 10 credits, exactly 10 pass', async () => {
      const id = (await admin(db, 'workspace', 'create', '--name', 'Shared credits', '--plan', 'pro', '--credits', '10')).stdout;
      const key = (await admin(db, 'key', 'create', '--workspace', id)).stdout;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(servers[i % 2]!, key, '/v1/scrape', { url: site.at('/page') })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 402)).toHaveLength(40);
      const shown = JSON.parse((await admin(db, 'workspace', 'show', id)).stdout);
      expect(shown.credits).toBe(0);
      // Every paid call is logged once its process has written its rows (behind the answers).
      for (const server of servers) expect((await (await call(server, key, '/v1/usage')).json()).balance).toBe(0);
      const usage = await (await call(servers[0]!, key, '/v1/usage')).json();
      expect(usage.totals).toMatchObject({ runs: 10, credits: 10 });
    });

    test('a key a workspace revokes through one process is 401 on the other at once', async () => {
      const id = (await admin(db, 'workspace', 'create', '--name', 'Revoking', '--plan', 'pro', '--credits', '10')).stdout;
      const owner = (await admin(db, 'key', 'create', '--workspace', id)).stdout;
      const made = await (await call(servers[0]!, owner, '/v1/keys', { name: 'short-lived' })).json();
      // The other process has just accepted (and remembered) the new key.
      expect((await call(servers[1]!, made.key, '/v1/results')).status).toBe(200);
      const revoked = await fetch(`${servers[0]!.url}/v1/keys/${made.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${owner}` },
      });
      expect(revoked.status).toBe(200);
      expect((await call(servers[1]!, made.key, '/v1/results')).status).toBe(401);
      expect((await call(servers[1]!, made.key, '/v1/scrape', { url: site.at('/page') })).status).toBe(401);
    });

    test('enforce one rate limit together: 12 requests against 6 per minute, 6 pass over both', async () => {
      const id = (await admin(db, 'workspace', 'create', '--name', 'Shared', '--plan', 'pro', '--credits', '100', '--rate-limit', '6'))
        .stdout;
      const key = (await admin(db, 'key', 'create', '--workspace', id)).stdout;
      // Clear of a minute's edge, so that all twelve fall in one counting window.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 55_000) await Bun.sleep(60_500 - intoMinute);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => call(servers[i % 2]!, key, '/v1/results')));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
      // Each process alone would have let 6 of its own 6 through: the count is the database's, shared.
      const limited = answers.find((a) => a.status === 429)!;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(await limited.json()).toEqual({ error: expect.stringMatching(/^Rate limit exceeded: 6 requests per minute/) });
    });
  });
}
