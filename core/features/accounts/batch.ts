/**
 * Group commit for the hot path of cloud mode. Every metered request needs three writes — count it
 * against its rate limit, take its credits, log it — and a commit per write would cost more than
 * the request itself (a WAL append on SQLite, a round trip and a WAL flush on Postgres). So requests
 * hand their writes to this batcher, which runs everything that arrived meanwhile as one
 * transaction of a few set-based statements, one batch at a time (the next one gathers while the
 * current one runs), and answers each request with its own outcome:
 *
 * - counters: one upsert per batch adds each workspace's hits; a request's count is its place in that sum;
 * - debits: per workspace, the batch's charges in arrival order are taken by one conditional UPDATE
 *   when the balance covers them all (the usual case); otherwise one by one, each conditional, so the
 *   balance never goes below zero and exactly the affordable requests pass;
 * - usage rows are inserted with the debit that pays for them (a charge is never without its row),
 *   and finished later (status, duration, result) by one UPDATE per batch, with any refunds.
 *
 * On Postgres the batch commits with `synchronous_commit = off`: a database crash (not a Trawl
 * crash) may forget the last fraction of a second of counters, charges and usage rows together,
 * but can never overdraw a balance or charge twice.
 */
import { sql } from 'kysely';
import { nowIso, readInt } from '../../storage/values.ts';
import type { AccountsDb, AccountsExecutor, UsageLogTable } from './tables.ts';

const WINDOW_MS = 60_000;
/** Requests per batch at most: a batch is one transaction, which should stay short. */
const MAX_BATCH = 256;

export type NewUsageRow = Omit<UsageLogTable, 'credits'>;

export interface Admission {
  /** Null when the request was not counted (no limit applies). */
  count: number | null;
  window: number;
  /** False when the rate limit refused it; then nothing was charged. */
  allowed: boolean;
  /** False when the balance could not pay (or the limit refused it). */
  charged: boolean;
  /** The balance after this request's charge (or as it stood, when not charged); null when not read. */
  remaining: number | null;
}

export interface AdmitOp {
  workspace: string;
  /** Requests per minute; undefined = not counted. */
  limit?: number;
  credits: number;
  required: number;
  /** Inserted with the charge when it goes through. */
  row?: NewUsageRow;
}

export interface FinishOp {
  workspace: string;
  usageId: string;
  status: string;
  error: string | null;
  durationMs: number;
  resultId: string | null;
  /** Credits given back (the call failed); its row's credits go down by as much. */
  refund: number;
}

type Waiting<T, R> = { op: T; resolve(value: R): void; reject(err: unknown): void };

export interface Batcher {
  admit(op: AdmitOp): Promise<Admission>;
  /** Resolves with the balance after a refund (null without one). */
  finish(op: FinishOp): Promise<number | null>;
  /** Waits until everything handed in so far is written. */
  settle(): Promise<void>;
}

const groupBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) (groups.get(key(item)) ?? groups.set(key(item), []).get(key(item))!).push(item);
  return groups;
};

export function createBatcher(db: AccountsDb, dialect: 'sqlite' | 'postgres', now: () => number = Date.now): Batcher {
  let admits: Array<Waiting<AdmitOp, Admission>> = [];
  let finishes: Array<Waiting<FinishOp, number | null>> = [];
  let running: Promise<void> | null = null;
  let scheduled = false;
  let swept = 0;

  const schedule = () => {
    if (running || scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  function flush(): void {
    scheduled = false;
    const batchAdmits = admits.splice(0, MAX_BATCH);
    const batchFinishes = finishes.splice(0, MAX_BATCH);
    if (batchAdmits.length === 0 && batchFinishes.length === 0) return;
    running = run(batchAdmits, batchFinishes)
      .catch((err) => { for (const w of [...batchAdmits, ...batchFinishes]) w.reject(err); })
      .finally(() => {
        running = null;
        if (admits.length || finishes.length) schedule();
      });
  }

  async function run(batchAdmits: Array<Waiting<AdmitOp, Admission>>, batchFinishes: Array<Waiting<FinishOp, number | null>>): Promise<void> {
    const window = Math.floor(now() / WINDOW_MS);
    const results = await db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
      const counts = await count(trx, batchAdmits.map((w) => w.op), window);
      const admissions = await charge(trx, batchAdmits.map((w) => w.op), counts, window);
      const refunded = await finish(trx, batchFinishes.map((w) => w.op));
      return { admissions, refunded };
    });
    batchAdmits.forEach((w, i) => w.resolve(results.admissions[i]!));
    batchFinishes.forEach((w, i) => w.resolve(results.refunded[i]!));
    if (window > swept) {
      swept = window;
      // Past minutes' counters are never read again; best effort, outside the batch.
      void db.deleteFrom('rate_limits').where('window_start', '<', window - 1).execute().catch(() => { swept = 0; });
    }
  }

  /** Each counted request's count in its workspace's current minute, in arrival order. */
  async function count(trx: AccountsExecutor, ops: AdmitOp[], window: number): Promise<Array<number | null>> {
    const counted = ops.map((op, i) => ({ op, i })).filter(({ op }) => op.limit !== undefined);
    const out: Array<number | null> = ops.map(() => null);
    if (counted.length === 0) return out;
    const hits = groupBy(counted, ({ op }) => op.workspace);
    const rows = await trx
      .insertInto('rate_limits')
      .values([...hits].map(([workspace, list]) => ({ workspace_id: workspace, window_start: window, count: list.length })))
      .onConflict((oc) => oc.columns(['workspace_id', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limits.count', '+', eb.ref('excluded.count')) })))
      .returning(['workspace_id', 'count'])
      .execute();
    for (const row of rows) {
      const list = hits.get(row.workspace_id)!;
      const first = readInt(row.count) - list.length;
      list.forEach(({ i }, place) => { out[i] = first + place + 1; });
    }
    return out;
  }

  async function charge(trx: AccountsExecutor, ops: AdmitOp[], counts: Array<number | null>, window: number): Promise<Admission[]> {
    const out: Admission[] = ops.map((op, i) => {
      const c = counts[i] ?? null;
      return { count: c, window, allowed: c === null || c <= op.limit!, charged: false, remaining: null };
    });
    const paying = ops.map((op, i) => ({ op, i })).filter(({ op, i }) => out[i]!.allowed && (op.credits > 0 || op.required > 0));
    const byWorkspace = groupBy(paying, ({ op }) => op.workspace);
    // All of a workspace's charges at once, when its balance covers each in turn.
    const plans = [...byWorkspace].map(([workspace, list]) => {
      let total = 0;
      let need = 0;
      for (const { op } of list) {
        need = Math.max(need, total + Math.max(op.credits, op.required));
        total += op.credits;
      }
      return { workspace, list, total, need };
    });
    const taken = new Map<string, number>();
    if (plans.length > 0) {
      const values = sql.join(plans.map((p) => sql`(${p.workspace}, ${p.total}, ${p.need})`));
      const rows = await sql<{ id: string; credits: unknown }>`
        with v(id, total, need) as (values ${values})
        update workspaces set credits = workspaces.credits - cast(v.total as bigint)
        from v where workspaces.id = v.id and workspaces.credits >= cast(v.need as bigint)
        returning workspaces.id as id, workspaces.credits as credits`.execute(trx);
      for (const row of rows.rows) taken.set(row.id, readInt(row.credits));
    }
    const rows: Array<UsageLogTable> = [];
    for (const plan of plans) {
      const after = taken.get(plan.workspace);
      if (after !== undefined) {
        // Balance after each request = after the batch + what later requests of the batch took.
        let later = plan.total;
        for (const { op, i } of plan.list) {
          later -= op.credits;
          out[i] = { ...out[i]!, charged: true, remaining: after + later };
          if (op.row) rows.push({ ...op.row, credits: op.credits });
        }
        continue;
      }
      // The balance cannot cover them all: one by one, each only if it still fits.
      for (const { op, i } of plan.list) {
        const row = op.credits > 0
          ? await trx.updateTable('workspaces').set((eb) => ({ credits: eb('credits', '-', op.credits) }))
            .where('id', '=', op.workspace).where('credits', '>=', Math.max(op.credits, op.required)).returning('credits').executeTakeFirst()
          : await trx.selectFrom('workspaces').select('credits').where('id', '=', op.workspace).where('credits', '>=', op.required).executeTakeFirst();
        if (row) {
          out[i] = { ...out[i]!, charged: true, remaining: readInt(row.credits) };
          if (op.row) rows.push({ ...op.row, credits: op.credits });
        } else {
          const balance = await trx.selectFrom('workspaces').select('credits').where('id', '=', op.workspace).executeTakeFirst();
          out[i] = { ...out[i]!, remaining: balance ? readInt(balance.credits) : 0 };
        }
      }
    }
    if (rows.length > 0) await trx.insertInto('usage_log').values(rows).execute();
    return out;
  }

  async function finish(trx: AccountsExecutor, ops: FinishOp[]): Promise<Array<number | null>> {
    if (ops.length === 0) return [];
    const finishedAt = nowIso();
    const values = sql.join(ops.map((op) => sql`(${op.usageId}, ${op.status}, ${op.error}, ${Math.round(op.durationMs)}, ${op.resultId}, ${op.refund})`));
    await sql`
      with v(id, status, error, duration_ms, result_id, refund) as (values ${values})
      update usage_log set status = v.status, error = v.error, duration_ms = cast(v.duration_ms as integer), result_id = v.result_id,
        credits = usage_log.credits - cast(v.refund as bigint), finished_at = ${finishedAt}
      from v where usage_log.id = v.id`.execute(trx);
    const refunds = groupBy(ops.filter((op) => op.refund > 0), (op) => op.workspace);
    const balances = new Map<string, number>();
    for (const [workspace, list] of refunds) {
      const total = list.reduce((sum, op) => sum + op.refund, 0);
      const row = await trx.updateTable('workspaces').set((eb) => ({ credits: eb('credits', '+', total) })).where('id', '=', workspace).returning('credits').executeTakeFirst();
      balances.set(workspace, row ? readInt(row.credits) : 0);
    }
    return ops.map((op) => (op.refund > 0 ? balances.get(op.workspace) ?? null : null));
  }

  return {
    admit(op) {
      return new Promise((resolve, reject) => {
        admits.push({ op, resolve, reject });
        schedule();
      });
    },
    finish(op) {
      return new Promise((resolve, reject) => {
        finishes.push({ op, resolve, reject });
        schedule();
      });
    },
    async settle() {
      while (running || scheduled || admits.length || finishes.length) {
        if (running) await running;
        else await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
