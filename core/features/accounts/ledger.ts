/**
 * The ledger behind the `Meter` contract (core/metering.ts): the workspace's balance and the usage
 * log. Every debit is one conditional UPDATE (`credits = credits - n WHERE credits >= n`): on
 * Postgres the row lock makes concurrent debits wait and re-check the condition, on SQLite the single
 * writer runs them one at a time, so the balance never goes below zero and no request is paid twice
 * (a check constraint refuses a negative balance in any case). A refund and the usage row that says
 * so are written in one transaction.
 */
import type { TrawlConfig } from '../../config-schema.ts';
import { TrawlError } from '../../errors.ts';
import { creditHeaders, INSUFFICIENT_CREDITS, priceOf, type Meter, type RunRef } from '../../metering.ts';
import type { Plan } from '../../storage/workspaces.ts';
import { nowIso, readInt } from '../../storage/values.ts';
import type { AccountsDb, AccountsExecutor } from './tables.ts';

const insufficient = (remaining: number) =>
  new TrawlError('payment_required', INSUFFICIENT_CREDITS, { headers: creditHeaders(0, remaining) });

async function balanceOf(db: AccountsExecutor, workspace: string): Promise<number | null> {
  const row = await db.selectFrom('workspaces').select('credits').where('id', '=', workspace).executeTakeFirst();
  return row ? readInt(row.credits) : null;
}

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

export function createLedger(db: AccountsDb, config: Pick<TrawlConfig, 'credits' | 'plans'>): Meter {
  return {
    price: (units, plan) => priceOf(units, plan, config),

    async debit(workspace, credits, required) {
      if (credits === 0) {
        // Nothing taken now (a crawl pays per page): only whether the first unit could be paid.
        const balance = (await balanceOf(db, workspace)) ?? 0;
        if (balance < required) throw insufficient(balance);
        return { workspace, credits: 0, remaining: balance };
      }
      const remaining = await take(db, workspace, credits, required);
      if (remaining === null) throw insufficient((await balanceOf(db, workspace)) ?? 0);
      return { workspace, credits, remaining };
    },

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
