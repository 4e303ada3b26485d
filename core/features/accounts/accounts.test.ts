// The accounts feature on every test database: keys (format, hashed storage, revocation), the ledger
// under concurrency (never overspent), refunds, the checks made with each charge, run charges, grants.
import 'reflect-metadata';
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { loadConfig } from '../../config.ts';
import type { Meter } from '../../metering.ts';
import type { Storage } from '../../services.ts';
import { createWorkspaceStore, hashApiKey, type WorkspaceStore } from '../../storage/workspaces.ts';
import { nowIso } from '../../storage/values.ts';
import { builtinPlugins } from '../../../plugins/index.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { builtinFeatures } from '../index.ts';
import { createAccountsService, type AccountsService } from './accounts.ts';
import { generateApiKey, KEY_PATTERN } from './keys.ts';
import { createLedger } from './ledger.ts';
import { createRateLimiter } from './rate-limit.ts';
import { pruneUsage } from './retention.ts';
import type { AccountTables } from './tables.ts';

const config = loadConfig({ plugins: builtinPlugins, features: builtinFeatures, env: {} });

/** Every row of every table, as text: where a key in clear would show up if it were stored anywhere. */
async function everyStoredValue(storage: Storage): Promise<string> {
  const db = storage.db.withTables<Record<string, Record<string, unknown>>>();
  // (on Postgres the catalog lists every schema's tables: only this test's own schema is read)
  const own =
    storage.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db)).rows[0]!.schema
      : undefined;
  const names = (await storage.db.introspection.getTables()).filter((t) => own === undefined || t.schema === own).map((t) => t.name);
  const dumps = await Promise.all(names.map(async (name) => JSON.stringify(await db.selectFrom(name).selectAll().execute())));
  return dumps.join('\n');
}

test('keys are trawl_ plus 43 URL-safe characters (256 random bits), never repeated', () => {
  const keys = Array.from({ length: 200 }, generateApiKey);
  for (const key of keys) expect(key).toMatch(KEY_PATTERN);
  expect(new Set(keys).size).toBe(keys.length);
  expect(Buffer.from(keys[0]!.slice('trawl_'.length), 'base64url')).toHaveLength(32);
});

for (const database of testDatabases()) {
  describe(`accounts (${database.name})`, () => {
    let storage: Storage;
    let accounts: AccountsService;
    let workspaces: WorkspaceStore;
    let meter: Meter;
    beforeEach(async () => {
      storage = await database.open();
      const db = storage.db.withTables<AccountTables>();
      accounts = createAccountsService(db);
      workspaces = createWorkspaceStore(storage);
      meter = createLedger({ db, dialect: storage.dialect, workspaces, config, limiter: createRateLimiter(db, storage.dialect) });
    });
    afterEach(async () => {
      await meter.close();
      await storage.close();
    });

    const admit = (workspace: string, extra: Partial<Parameters<Meter['admit']>[0]> = {}) =>
      meter.admit({
        workspace,
        credits: 1,
        required: 1,
        metered: true,
        usage: { endpoint: 'scrape', url: 'https://example.com/', startedAt: nowIso() },
        ...extra,
      });
    /** Ends every charged call as succeeded: its usage row is written then. */
    const finishAll = (workspace: string, admitted: Array<{ usageId: string | null }>) =>
      Promise.all(
        admitted.filter((a) => a.usageId).map((a) => meter.finish(workspace, a.usageId!, { status: 'succeeded', durationMs: 1 }, 0)),
      );

    test('a key is shown once and stored only as its hash and last four characters', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'starter', credits: 5 });
      const { key, info } = await accounts.createKey(workspace.id, { name: 'ci' });
      expect(key).toMatch(KEY_PATTERN);
      expect(info).toMatchObject({ workspaceId: workspace.id, name: 'ci', suffix: key.slice(-4), revokedAt: null });
      expect(await workspaces.findAccountByKey(key)).toMatchObject({ id: workspace.id, plan: 'starter', credits: 5 });
      const stored = await everyStoredValue(storage);
      expect(stored).toContain(hashApiKey(key));
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(key.slice('trawl_'.length, -4));
      expect(JSON.stringify(await accounts.listKeys(workspace.id))).not.toContain(key.slice(0, -4));
    });

    test('a revoked key finds nothing from that moment; revoking again keeps the first time', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'growth' });
      const kept = await accounts.createKey(workspace.id);
      const revoked = await accounts.createKey(workspace.id);
      const first = await accounts.revokeKey(revoked.info.id);
      expect(first.revokedAt).not.toBeNull();
      expect(await workspaces.findAccountByKey(revoked.key)).toBeNull();
      expect(await workspaces.findWorkspaceByKey(revoked.key)).toBeNull();
      expect(await workspaces.findAccountByKey(kept.key)).toMatchObject({ id: workspace.id });
      expect((await accounts.revokeKey(revoked.info.id)).revokedAt).toBe(first.revokedAt);
      await expect(accounts.revokeKey('no-such-key')).rejects.toMatchObject({ code: 'not_found' });
    });

    test('50 concurrent charges against a balance of 10: exactly 10 pass, the balance ends at 0', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'starter', credits: 10 });
      const results = await Promise.all(Array.from({ length: 50 }, () => admit(workspace.id)));
      expect(results.filter((r) => r.charged)).toHaveLength(10);
      expect(results.filter((r) => !r.charged).every((r) => r.usageId === null && r.remaining === 0)).toBe(true);
      expect(
        results
          .filter((r) => r.charged)
          .map((r) => r.remaining)
          .sort((a, b) => a - b),
      ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(0);
      await finishAll(workspace.id, results);
      const rows = await storage.db.withTables<AccountTables>().selectFrom('usage_log').selectAll().execute();
      expect(rows.map((r) => [Number(r.credits), r.status])).toEqual(Array.from({ length: 10 }, () => [1, 'succeeded']));
      const leases = await storage.db.withTables<AccountTables>().selectFrom('credit_leases').select('held').execute();
      expect(leases.map((l) => Number(l.held))).toEqual([0]);
    });

    test('charges of several prices and a required minimum never take the balance below zero', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'pro', credits: 20 });
      const prices = Array.from({ length: 30 }, (_, i) => 1 + (i % 4));
      const results = await Promise.all(prices.map((credits) => admit(workspace.id, { credits, required: credits + 1 })));
      const taken = results.reduce((sum, r, i) => sum + (r.charged ? prices[i]! : 0), 0);
      const balance = (await accounts.getWorkspace(workspace.id))!.credits;
      expect(balance).toBe(20 - taken);
      expect(balance).toBeGreaterThanOrEqual(0);
      // Whatever was refused could not have been paid, with its required minimum, from what was left.
      expect(results.every((r, i) => r.charged || balance < prices[i]! + 1)).toBe(true);
    });

    test('a failed call is refunded and its row says so; a finished one records its result', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'starter', credits: 3 });
      const failed = await admit(workspace.id);
      const ok = await admit(workspace.id);
      expect(
        await meter.finish(workspace.id, failed.usageId!, { status: 'failed', error: 'Failed to fetch URL: refused', durationMs: 5 }, 1),
      ).toBe(2);
      expect(await meter.finish(workspace.id, ok.usageId!, { status: 'succeeded', resultId: 'result-1', durationMs: 7 }, 0)).toBeNull();
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(2);
      const rows = await storage.db.withTables<AccountTables>().selectFrom('usage_log').selectAll().orderBy('created_at').execute();
      expect(rows.map((r) => [r.id, Number(r.credits), r.status, r.error, r.result_id])).toEqual([
        [failed.usageId, 0, 'failed', 'Failed to fetch URL: refused', null],
        [ok.usageId, 1, 'succeeded', null, 'result-1'],
      ]);
    });

    test('each charge checks the key and the plan as they are now', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'free', credits: 10 });
      const { key, info } = await accounts.createKey(workspace.id);
      const keyHash = hashApiKey(key);
      expect(await admit(workspace.id, { keyHash })).toMatchObject({ keyValid: true, refusal: null, charged: true });
      expect(await admit(workspace.id, { keyHash, paid: true })).toMatchObject({ refusal: 'paid', charged: false });
      await accounts.updateWorkspace(workspace.id, { plan: 'growth', status: 'lapsed' });
      expect(await admit(workspace.id, { keyHash })).toMatchObject({ refusal: 'lapsed', charged: false });
      // Reading is allowed to a lapsed workspace: nothing metered, nothing paid.
      expect(await meter.admit({ workspace: workspace.id, credits: 0, required: 0, keyHash })).toMatchObject({
        refusal: null,
        charged: true,
      });
      await accounts.updateWorkspace(workspace.id, { status: 'active' });
      await accounts.revokeKey(info.id);
      expect(await admit(workspace.id, { keyHash })).toMatchObject({ keyValid: false, charged: false });
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(9);
    });

    test('the rate limit counts every request of the minute and refuses past it, charging nothing', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'starter', credits: 100 });
      const results = await Promise.all(Array.from({ length: 8 }, () => admit(workspace.id, { limit: 5 })));
      expect(results.filter((r) => r.rate!.allowed)).toHaveLength(5);
      expect(results.filter((r) => r.charged)).toHaveLength(5);
      const refused = results.find((r) => !r.rate!.allowed)!;
      expect(refused.rate).toMatchObject({ limit: 5, remaining: 0 });
      expect(refused.rate!.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.rate!.retryAfter).toBeLessThanOrEqual(60);
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(95);
    });

    test("asynchronous work is charged unit by unit to its run's row, and stops when the balance is out", async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'scale', credits: 3 });
      const run = { workspace: workspace.id, runId: 'crawl-1', endpoint: 'crawl', url: 'https://example.com/' };
      const charges = await Promise.all(Array.from({ length: 5 }, () => meter.chargeRun(run, { crawlPage: 1 })));
      expect(charges.filter((c) => !c.refusal)).toHaveLength(3);
      expect(charges.filter((c) => c.refusal === 'credits')).toHaveLength(2);
      await meter.refundRun(run, 1);
      // The call is recorded after its pages were charged (the row exists): it still names its stored answer.
      const recorded = await meter.record(
        { workspace: workspace.id, credits: 0, remaining: 1 },
        {
          endpoint: 'crawl',
          status: 'succeeded',
          url: 'https://example.com/',
          runId: 'crawl-1',
          resultId: 'answer-1',
          durationMs: 3,
          startedAt: nowIso(),
        },
        0,
      );
      const rows = await storage.db.withTables<AccountTables>().selectFrom('usage_log').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: recorded.usageId,
        run_id: 'crawl-1',
        status: 'succeeded',
        endpoint: 'crawl',
        result_id: 'answer-1',
      });
      expect(Number(rows[0]!.credits)).toBe(2);
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(1);
    });

    test('asynchronous work of a lapsed workspace, or a plan-rated unit on the free plan, is refused with nothing taken', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'starter', credits: 50 });
      const run = { workspace: workspace.id, runId: 'watch-check-1', endpoint: 'watch.check' };
      expect(await meter.chargeRun(run, { watchCheck: 1 })).toEqual({ credits: 1, remaining: 49 });
      await accounts.updateWorkspace(workspace.id, { status: 'lapsed' });
      expect(await meter.chargeRun(run, { watchCheck: 1 })).toEqual({ refusal: 'lapsed' });
      await accounts.updateWorkspace(workspace.id, { status: 'active', plan: 'free' });
      expect(await meter.chargeRun(run, { socialCheck: 1 })).toEqual({ refusal: 'paid' });
      expect(await meter.chargeRun(run, { watchCheck: 1 })).toEqual({ credits: 1, remaining: 48 });
      await meter.settle();
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(48);
    });

    test('a large balance is leased in blocks: calls are paid without a write each; held credits go back at shutdown', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'scale', credits: 10_000 });
      const first = await admit(workspace.id);
      // One call's credit and a block of 1/16 of the rest (624) left the balance together.
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(10_000 - 1 - 624);
      const rest = [];
      for (let i = 0; i < 99; i++) rest.push(await admit(workspace.id));
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(10_000 - 1 - 624);
      expect(rest.at(-1)!.remaining).toBe(10_000 - 100);
      await finishAll(workspace.id, [first, ...rest]);
      await meter.close();
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(10_000 - 100);
      expect(await storage.db.withTables<AccountTables>().selectFrom('credit_leases').selectAll().execute()).toEqual([]);
      const rows = await storage.db
        .withTables<AccountTables>()
        .selectFrom('usage_log')
        .select((eb) => eb.fn.sum<number>('credits').as('sum'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.sum)).toBe(100);
    });

    test("two processes charging one large balance never overspend; a dead process's credits come back once its lease expires", async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'scale', credits: 1_000 });
      const db = storage.db.withTables<AccountTables>();
      const other = createLedger({ db, dialect: storage.dialect, workspaces, config, limiter: createRateLimiter(db, storage.dialect) });
      const calls = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? other : meter).admit({ workspace: workspace.id, credits: 20, required: 20 })),
      );
      // 1,000 credits pay 50 calls of 20, whichever process holds which part of the balance.
      expect(calls.filter((c) => c.charged).length).toBeLessThanOrEqual(50);
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBeGreaterThanOrEqual(0);
      await other.close();
      await meter.close();
      expect((await accounts.getWorkspace(workspace.id))!.credits).toBe(1_000 - 20 * calls.filter((c) => c.charged).length);

      // A process that dies holding a lease: its credits are in no balance until the lease expires.
      const dying = createLedger({ db, dialect: storage.dialect, workspaces, config, limiter: createRateLimiter(db, storage.dialect) });
      const next = await accounts.createWorkspace({ name: 'Acme 2', plan: 'scale', credits: 1_000 });
      expect((await dying.admit({ workspace: next.id, credits: 1, required: 1 })).charged).toBe(true);
      // The call's credit and a block of 1/16 of the rest.
      expect((await accounts.getWorkspace(next.id))!.credits).toBe(1_000 - 1 - 62);
      await db.updateTable('credit_leases').set({ expires_at: 0 }).execute();
      const survivor = createLedger({ db, dialect: storage.dialect, workspaces, config, limiter: createRateLimiter(db, storage.dialect) });
      // Only the reclaimed lease can pay this: everything the dead process held (its unlogged call too) is back.
      expect((await survivor.admit({ workspace: next.id, credits: 1_000, required: 1_000 })).charged).toBe(true);
      expect((await accounts.getWorkspace(next.id))!.credits).toBe(0);
      // The dead process's last words cannot give the same credits back twice.
      await dying.close();
      await survivor.close();
      expect((await accounts.getWorkspace(next.id))!.credits).toBe(0);
    });

    test('retention deletes usage rows past it and leases of processes long gone that hold nothing', async () => {
      const db = storage.db.withTables<AccountTables>();
      const now = Date.parse('2026-06-01T00:00:00Z');
      const row = (id: string, createdAt: string) => ({
        id,
        workspace_id: 'w',
        endpoint: 'scrape',
        url: null,
        credits: 1,
        status: 'succeeded',
        error: null,
        duration_ms: 1,
        result_id: null,
        run_id: null,
        created_at: createdAt,
        finished_at: createdAt,
      });
      await db
        .insertInto('usage_log')
        .values([row('old', '2026-04-01T00:00:00.000Z'), row('edge', '2026-05-02T00:00:01.000Z'), row('new', '2026-05-31T00:00:00.000Z')])
        .execute();
      await db
        .insertInto('credit_leases')
        .values([
          { id: 'gone/w', workspace_id: 'w', held: 0, expires_at: now - 3_600_000 },
          { id: 'holding/w', workspace_id: 'w', held: 5, expires_at: now - 3_600_000 },
          { id: 'live/w', workspace_id: 'w', held: 0, expires_at: now + 60_000 },
        ])
        .execute();
      expect(await pruneUsage(db, 0, now)).toBe(0);
      expect(await db.selectFrom('usage_log').select('id').execute()).toHaveLength(3);
      expect(await pruneUsage(db, 30, now)).toBe(1);
      expect((await db.selectFrom('usage_log').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['edge', 'new']);
      expect((await db.selectFrom('credit_leases').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['holding/w', 'live/w']);
    });

    test('grants add to the balance and are logged; plans price plan-rated units', async () => {
      const workspace = await accounts.createWorkspace({ name: 'Acme', plan: 'growth', credits: 2 });
      expect((await accounts.grantCredits(workspace.id, 40, 'top-up')).credits).toBe(42);
      const grants = await storage.db
        .withTables<AccountTables>()
        .selectFrom('credit_grants')
        .select(['credits', 'note'])
        .orderBy('created_at')
        .execute();
      expect(grants.map((g) => [Number(g.credits), g.note])).toEqual([
        [2, 'initial credits'],
        [40, 'top-up'],
      ]);
      await expect(accounts.grantCredits('nope', 1)).rejects.toMatchObject({ code: 'not_found' });
      expect(meter.price({ socialCheck: 2, scrape: 1 }, 'growth')).toBe(7);
      expect(meter.price({ audiencePage: 1 }, 'starter')).toBe(5);
      expect(meter.price({ socialCheck: 1 }, 'scale')).toBe(1);
      expect(() => meter.price({ socialCheck: 1 }, 'free')).toThrow('requires a paid plan');
    });
  });
}
