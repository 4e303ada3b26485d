/**
 * The ledger behind the `Meter` contract (core/metering.ts): the workspace's balance and the usage
 * log. Every debit is a conditional UPDATE (`credits = credits - n WHERE credits >= n`): on
 * Postgres the row lock makes concurrent debits wait and re-check the condition, on SQLite the single
 * writer runs them one at a time, so the balance never goes below zero and no request is paid twice
 * (a check constraint refuses a negative balance in any case). Calls are admitted and finished
 * through the batcher (batch.ts); the charges of asynchronous runs are written one by one here, each
 * with its usage row in one transaction.
 */
import type { TrawlConfig } from '../../config-schema.ts';
import { priceOf, type Meter, type RunRef } from '../../metering.ts';
import type { Plan } from '../../storage/workspaces.ts';
import { nowIso, readInt } from '../../storage/values.ts';
import type { AccountsDb, AccountsExecutor } from './tables.ts';
import type { Batcher } from './batch.ts';
import { decide } from './rate-limit.ts';

/** Takes `credits` if the balance holds `required`; the new balance, or null when it does not. */
async function take(db: AccountsExecutor, workspace: string, credits: number, required: number): Promise<number | null> {
  const row = await db
    .updateTable('workspaces')
    .set((eb) => ({ credits: eb('credits', '-', credits) }))
    .where('id', '=', workspace)
    .where('credits', '>=', Math.max(credits, required))
    .returning('credits')
    .executeTakeFirst();
  return row ? readInt(row.credits) : null;
}

async function give(db: AccountsExecutor, workspace: string, credits: number): Promise<number> {
  const row = await db
    .updateTable('workspaces')
    .set((eb) => ({ credits: eb('credits', '+', credits) }))
    .where('id', '=', workspace)
    .returning('credits')
    .executeTakeFirst();
  return row ? readInt(row.credits) : 0;
}

/** Adds `credits` to the run's usage row, creating it (status `running`) when its call is not recorded yet. */
async function addToRun(db: AccountsExecutor, run: RunRef, credits: number): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('usage_log')
    .values({
      id: crypto.randomUUID(), workspace_id: run.workspace, endpoint: run.endpoint, url: run.url ?? null, credits,
      status: 'running', error: null, duration_ms: 0, result_id: null, run_id: run.runId, created_at: now, finished_at: null,
    })
    .onConflict((oc) => oc.column('run_id').doUpdateSet((eb) => ({ credits: eb('usage_log.credits', '+', eb.ref('excluded.credits')) })))
    .execute();
}

export function createLedger(db: AccountsDb, batcher: Batcher, config: Pick<TrawlConfig, 'credits' | 'plans'>): Meter {
  return {
    price: (units, plan) => priceOf(units, plan, config),

    async admit(request) {
      const usageId = request.usage ? crypto.randomUUID() : null;
      const row = request.usage && usageId ? {
        id: usageId, workspace_id: request.workspace, endpoint: request.usage.endpoint, url: request.usage.url ?? null, status: 'running',
        error: null, duration_ms: 0, result_id: null, run_id: null, created_at: request.usage.startedAt, finished_at: null,
      } : undefined;
      const admission = await batcher.admit({
        workspace: request.workspace, limit: request.limit, credits: request.credits, required: request.required, row,
        keyHash: request.keyHash, metered: request.metered, paid: request.paid,
      });
      const rate = request.limit === undefined ? null : decide(admission, request.limit);
      let remaining = admission.remaining;
      if (remaining === null) {
        // Refused by the limit before the balance was read, or nothing to take: say what the balance is.
        const found = await db.selectFrom('workspaces').select('credits').where('id', '=', request.workspace).executeTakeFirst();
        remaining = found ? readInt(found.credits) : 0;
      }
      return {
        rate, charged: admission.charged, remaining, usageId: admission.charged ? usageId : null,
        keyValid: admission.keyValid, refusal: admission.refusal,
      };
    },

    finish(workspace, usageId, outcome, refund) {
      return batcher.finish({
        workspace, usageId, status: outcome.status, error: outcome.error?.slice(0, 2000) ?? null,
        durationMs: outcome.durationMs, resultId: outcome.resultId ?? null, refund,
      });
    },

    settle: () => batcher.settle(),

    async record(charge, outcome, refund) {
      const id = crypto.randomUUID();
      const credits = charge.credits - refund;
      const row = {
        id, workspace_id: charge.workspace, endpoint: outcome.endpoint, url: outcome.url ?? null, credits,
        status: outcome.status, error: outcome.error?.slice(0, 2000) ?? null, duration_ms: Math.round(outcome.durationMs),
        result_id: outcome.resultId ?? null, run_id: outcome.runId ?? null, created_at: outcome.startedAt, finished_at: nowIso(),
      };
      const write = async (trx: AccountsExecutor) => {
        if (!outcome.runId) {
          await trx.insertInto('usage_log').values(row).execute();
          return id;
        }
        // The run's first page may have been charged (and its row made) before the call was recorded.
        const written = await trx
          .insertInto('usage_log')
          .values(row)
          .onConflict((oc) => oc.column('run_id').doUpdateSet((eb) => ({
            endpoint: eb.ref('excluded.endpoint'), url: eb.ref('excluded.url'), status: eb.ref('excluded.status'),
            error: eb.ref('excluded.error'), duration_ms: eb.ref('excluded.duration_ms'), created_at: eb.ref('excluded.created_at'),
            finished_at: eb.ref('excluded.finished_at'), credits: eb('usage_log.credits', '+', eb.ref('excluded.credits')),
          })))
          .returning('id')
          .executeTakeFirstOrThrow();
        return written.id;
      };
      if (refund <= 0) return { usageId: await write(db), credits, remaining: charge.remaining };
      return db.transaction().execute(async (trx) => {
        const remaining = await give(trx, charge.workspace, refund);
        return { usageId: await write(trx), credits, remaining };
      });
    },

    chargeRun(run, units) {
      // Off the request path (a page worker), so a transaction of its own rather than a place in a batch.
      return db.transaction().execute(async (trx) => {
        const workspace = await trx.selectFrom('workspaces').select('plan').where('id', '=', run.workspace).executeTakeFirst();
        if (!workspace) return null;
        const credits = priceOf(units, workspace.plan as Plan, config);
        const remaining = await take(trx, run.workspace, credits, credits);
        if (remaining === null) return null;
        await addToRun(trx, run, credits);
        return { credits, remaining };
      });
    },

    async refundRun(run, credits) {
      await db.transaction().execute(async (trx) => {
        await give(trx, run.workspace, credits);
        await trx.updateTable('usage_log').set((eb) => ({ credits: eb('credits', '-', credits) })).where('run_id', '=', run.runId).execute();
      });
    },
  };
}
