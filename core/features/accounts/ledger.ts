/**
 * The ledger behind the `Meter` contract (core/metering.ts): admission, charges, refunds and the
 * usage log. A call is admitted after checking its key and its workspace's plan — read together with
 * the other calls arriving meanwhile, and remembered for `CHECKS_REMEMBERED_MS` counted from before
 * the read, which a revocation or plan change waits out (accounts.ts) — then counted against
 * its rate limit (rate-limit.ts) and paid from the process's purse (purse.ts): both write to the
 * database only for a block of calls or when the workspace is short. Its usage row is written
 * once, complete, when it ends (journal.ts). Asynchronous runs (crawl and batch pages) are paid
 * from the same purse; their rows are written as they are charged.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../../config-schema.ts';
import { TrawlError } from '../../errors.ts';
import { priceOf, type Meter, type RateLimiter, type RunRef, type Units } from '../../metering.ts';
import type { Account, Plan, WorkspaceStore } from '../../storage/workspaces.ts';
import { nowIso, readInt } from '../../storage/values.ts';
import type { AccountsDb, AccountsExecutor } from './tables.ts';
import { CHECKS_REMEMBERED_MS } from './accounts.ts';
import type { AccountsSettings } from './config.ts';
import { createJournal } from './journal.ts';
import { startPruning } from './retention.ts';
import { dropEmpty, spend } from './leases.ts';
import { createPurse } from './purse.ts';

/**
 * Usage row ids are time-ordered (UUIDv7): rows are appended at the end of the primary key's
 * index instead of all over it, so a batch of rows dirties a page or two rather than one per row
 * (the write-ahead log, and on SQLite its checkpoints, carry every dirtied page).
 */
const newUsageId = () => Bun.randomUUIDv7();

/** What the plan says of a call, as the workspace stands now: a lapsed workspace is told so, whatever its plan. */
export function refusalOf(
  call: { metered?: boolean; paid?: boolean },
  account: Pick<Account, 'plan' | 'status'> | null,
): 'lapsed' | 'paid' | null {
  if (!account) return null;
  if ((call.metered || call.paid) && account.status === 'lapsed') return 'lapsed';
  if (call.paid && account.plan === 'free') return 'paid';
  return null;
}

/** A unit's price on the plan, or null when the plan has no rate for it (a paid feature on the free plan). */
function planPrice(units: Units, plan: Plan, config: Pick<TrawlConfig, 'credits' | 'plans'>): number | null {
  try {
    return priceOf(units, plan, config);
  } catch (err) {
    if (err instanceof TrawlError && err.code === 'forbidden') return null;
    throw err;
  }
}

/** Adds `credits` to the run's usage row, creating it (status `running`) when its call is not recorded yet. */
async function addToRun(db: AccountsExecutor, run: RunRef, credits: number): Promise<void> {
  await db
    .insertInto('usage_log')
    .values({
      id: newUsageId(),
      workspace_id: run.workspace,
      endpoint: run.endpoint,
      url: run.url ?? null,
      credits,
      status: 'running',
      error: null,
      duration_ms: 0,
      result_id: null,
      run_id: run.runId,
      created_at: nowIso(),
      finished_at: null,
    })
    .onConflict((oc) => oc.column('run_id').doUpdateSet((eb) => ({ credits: eb('usage_log.credits', '+', eb.ref('excluded.credits')) })))
    .execute();
}

interface Open {
  workspace: string;
  endpoint: string;
  url: string | null;
  credits: number;
  startedAt: string;
}

export interface LedgerDeps {
  db: AccountsDb;
  dialect: 'sqlite' | 'postgres';
  workspaces: Pick<WorkspaceStore, 'findAccountByHash'>;
  config: Pick<TrawlConfig, 'credits' | 'plans'>;
  /** The process's one rate limiter (rate-limit.ts). */
  limiter: RateLimiter;
  /** The usage log's retention, pruned by this process until it closes (retention.ts). */
  retention?: { settings: AccountsSettings; logger: Logger };
}

export function createLedger({ db, dialect, workspaces, config, limiter, retention }: LedgerDeps): Meter {
  const purse = createPurse(db);
  const journal = createJournal(db, dialect, purse);
  const stopPruning = retention ? startPruning(db, retention.settings, retention.logger) : () => {};
  /** Admitted calls whose rows are written when they end. */
  const open = new Map<string, Open>();

  const accountOf = async (workspace: string) => {
    const row = await db
      .selectFrom('workspaces')
      .select(['id', 'plan', 'status', 'credits'])
      .where('id', '=', workspace)
      .executeTakeFirst();
    return row ? { id: row.id, plan: row.plan as Plan, status: row.status as Account['status'], credits: readInt(row.credits) } : null;
  };

  type Checked = Pick<Account, 'id' | 'plan' | 'status' | 'credits'> | null;
  const checks = new Map<string, { account: Checked; until: number }>();
  /** The key's workspace and plan (or the workspace's, without a key), at most CHECKS_REMEMBERED_MS old. */
  async function check(workspace: string, keyHash: string | undefined): Promise<Checked> {
    const id = keyHash ?? `workspace:${workspace}`;
    const known = checks.get(id);
    const started = performance.now();
    if (known && known.until > started) return known.account;
    const account = keyHash ? await workspaces.findAccountByHash(keyHash) : await accountOf(workspace);
    if (checks.size > 10_000) checks.clear();
    checks.set(id, { account, until: started + CHECKS_REMEMBERED_MS });
    return account;
  }

  return {
    price: (units, plan) => priceOf(units, plan, config),

    async admit(request) {
      const { workspace } = request;
      const account = await check(workspace, request.keyHash);
      const keyValid = !request.keyHash || account?.id === workspace;
      const refused = { rate: null, charged: false, remaining: account?.credits ?? 0, usageId: null, keyValid, refusal: null };
      if (!keyValid) return refused;
      const refusal = refusalOf(request, account);
      if (refusal) return { ...refused, refusal };
      const rate = request.limit === undefined ? null : await limiter.hit(workspace, request.limit);
      if (rate && !rate.allowed) return { ...refused, rate };
      if (request.credits === 0 && request.required === 0) return { ...refused, rate, charged: true };
      const paid = await purse.pay(workspace, request.credits, request.required);
      if (!paid.charged || !request.usage) return { ...refused, rate, charged: paid.charged, remaining: paid.remaining };
      const id = newUsageId();
      open.set(id, {
        workspace,
        endpoint: request.usage.endpoint,
        url: request.usage.url ?? null,
        credits: request.credits,
        startedAt: request.usage.startedAt,
      });
      return { ...refused, rate, charged: true, remaining: paid.remaining, usageId: id };
    },

    async finish(workspace, usageId, outcome, refund) {
      const call = open.get(usageId);
      if (!call || call.workspace !== workspace) throw new Error(`No admitted call ${usageId} of workspace ${workspace}`);
      open.delete(usageId);
      const remaining = refund > 0 ? await purse.refund(workspace, refund) : null;
      await journal.write({
        id: usageId,
        workspace_id: workspace,
        endpoint: call.endpoint,
        url: call.url,
        credits: call.credits - refund,
        status: outcome.status,
        error: outcome.error?.slice(0, 2000) ?? null,
        duration_ms: Math.round(outcome.durationMs),
        result_id: outcome.resultId ?? null,
        run_id: null,
        created_at: call.startedAt,
        finished_at: nowIso(),
      });
      return remaining;
    },

    async settle() {
      await purse.settle();
      await journal.settle();
    },

    async record(charge, outcome, refund) {
      const id = newUsageId();
      const credits = charge.credits - refund;
      const remaining = refund > 0 ? await purse.refund(charge.workspace, refund) : charge.remaining;
      const row = {
        id,
        workspace_id: charge.workspace,
        endpoint: outcome.endpoint,
        url: outcome.url ?? null,
        credits,
        status: outcome.status,
        error: outcome.error?.slice(0, 2000) ?? null,
        duration_ms: Math.round(outcome.durationMs),
        result_id: outcome.resultId ?? null,
        run_id: outcome.runId ?? null,
        created_at: outcome.startedAt,
        finished_at: nowIso(),
      };
      const usageId = await db.transaction().execute(async (trx) => {
        if (credits > 0) await spend(trx, purse.leaseOf(charge.workspace), credits);
        if (!outcome.runId) {
          await trx.insertInto('usage_log').values(row).execute();
          return id;
        }
        // The run's first page may have been charged (and its row made) before the call was recorded.
        const written = await trx
          .insertInto('usage_log')
          .values(row)
          .onConflict((oc) =>
            oc.column('run_id').doUpdateSet((eb) => ({
              endpoint: eb.ref('excluded.endpoint'),
              url: eb.ref('excluded.url'),
              status: eb.ref('excluded.status'),
              error: eb.ref('excluded.error'),
              duration_ms: eb.ref('excluded.duration_ms'),
              created_at: eb.ref('excluded.created_at'),
              finished_at: eb.ref('excluded.finished_at'),
              result_id: eb.ref('excluded.result_id'),
              credits: eb('usage_log.credits', '+', eb.ref('excluded.credits')),
            })),
          )
          .returning('id')
          .executeTakeFirstOrThrow();
        return written.id;
      });
      return { usageId, credits, remaining };
    },

    async chargeRun(run, units) {
      const account = await accountOf(run.workspace);
      if (!account) return { refusal: 'credits' };
      if (account.status === 'lapsed') return { refusal: 'lapsed' };
      const credits = planPrice(units, account.plan, config);
      if (credits === null) return { refusal: 'paid' };
      if (credits === 0) return { credits, remaining: account.credits };
      const paid = await purse.pay(run.workspace, credits, credits);
      if (!paid.charged) return { refusal: 'credits' };
      await db.transaction().execute(async (trx) => {
        await spend(trx, purse.leaseOf(run.workspace), credits);
        await addToRun(trx, run, credits);
      });
      return { credits, remaining: paid.remaining };
    },

    async refundRun(run, credits) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('workspaces')
          .set((eb) => ({ credits: eb('credits', '+', credits) }))
          .where('id', '=', run.workspace)
          .execute();
        await trx
          .updateTable('usage_log')
          .set((eb) => ({ credits: eb('credits', '-', credits) }))
          .where('run_id', '=', run.runId)
          .execute();
      });
    },

    async finishRun(run, outcome) {
      await db
        .updateTable('usage_log')
        .set({
          status: outcome.status,
          error: outcome.error?.slice(0, 2000) ?? null,
          duration_ms: Math.round(outcome.durationMs),
          finished_at: nowIso(),
        })
        .where('run_id', '=', run.runId)
        .where('workspace_id', '=', run.workspace)
        .execute();
    },

    async close() {
      stopPruning();
      await this.settle();
      await dropEmpty(db, await purse.close());
    },
  };
}
