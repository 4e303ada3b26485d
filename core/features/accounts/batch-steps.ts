/**
 * The steps of a batch (batch.ts) as small portable statements run one after another in the
 * batch's transaction: count each workspace's requests of the minute, take the charges, insert the
 * usage rows, finish earlier rows with their refunds. SQLite runs every batch this way: in process
 * a statement costs microseconds and the commit is what the batch shares; the statements are fixed
 * texts, sent as they are (no query builder on this path: it cost more than SQLite itself), so
 * the driver reuses their prepared forms. Postgres runs its batches as one statement
 * (batch-postgres.ts) and comes here only for refunds and for workspaces at their limit or short
 * of credits.
 */
import { CompiledQuery } from 'kysely';
import { nowIso, readInt } from '../../storage/values.ts';
import type { AccountsExecutor } from './tables.ts';
import type { Admission, AdmitOp, FinishOp } from './batch.ts';

export const groupBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) (groups.get(key(item)) ?? groups.set(key(item), []).get(key(item))!).push(item);
  return groups;
};

const SQL = {
  count: 'insert into rate_limits (workspace_id, window_start, count) values (?, ?, ?) on conflict (workspace_id, window_start) do update set count = rate_limits.count + excluded.count returning count',
  take: 'update workspaces set credits = credits - ? where id = ? and credits >= ? returning credits',
  give: 'update workspaces set credits = credits + ? where id = ? returning credits',
  balance: 'select credits from workspaces where id = ?',
  key: 'select workspace_id from api_keys where key_hash = ? and revoked_at is null',
  account: 'select plan, status from workspaces where id = ?',
  insert: 'insert into usage_log (id, workspace_id, endpoint, url, credits, status, error, duration_ms, result_id, run_id, created_at, finished_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  finish: 'update usage_log set status = ?, error = ?, duration_ms = ?, result_id = ?, credits = credits - ?, finished_at = ? where id = ?',
} as const;

/** Runs one of the statements above; Postgres numbers its placeholders. */
export type Exec = (trx: AccountsExecutor, text: string, params: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;

export function executor(dialect: 'sqlite' | 'postgres'): Exec {
  const texts = new Map<string, string>();
  const textOf = (text: string) => {
    if (dialect === 'sqlite') return text;
    let found = texts.get(text);
    if (found === undefined) {
      let n = 0;
      found = text.replace(/\?/g, () => `$${++n}`);
      texts.set(text, found);
    }
    return found;
  };
  return async (trx, text, params) => (await trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(textOf(text), [...params]))).rows;
}

/** Each counted request's count in its workspace's current minute, in arrival order. */
export async function count(exec: Exec, trx: AccountsExecutor, ops: AdmitOp[], window: number): Promise<Array<number | null>> {
  const out: Array<number | null> = ops.map(() => null);
  const hits = groupBy(ops.map((op, i) => ({ op, i })).filter(({ op }) => op.limit !== undefined), ({ op }) => op.workspace);
  for (const [workspace, list] of hits) {
    const [row] = await exec(trx, SQL.count, [workspace, window, list.length]);
    const first = readInt(row!.count) - list.length;
    list.forEach(({ i }, place) => { out[i] = first + place + 1; });
  }
  return out;
}

/** What the plan says of a call, as the workspace stands now. */
export function refusalOf(op: Pick<AdmitOp, 'metered' | 'paid'>, account: { plan: string; status: string } | undefined): 'lapsed' | 'paid' | null {
  if (!account) return null;
  if (op.paid && (account.plan === 'free' || account.status === 'lapsed')) return 'paid';
  if (op.metered && account.status === 'lapsed') return 'lapsed';
  return null;
}

/** Whether each request's key is still valid and what its workspace's plan says, as of this transaction. */
export async function verify(exec: Exec, trx: AccountsExecutor, ops: AdmitOp[]): Promise<Array<Pick<Admission, 'keyValid' | 'refusal'>>> {
  const owners = new Map<string, string | null>();
  for (const hash of new Set(ops.flatMap((op) => (op.keyHash ? [op.keyHash] : [])))) {
    const [row] = await exec(trx, SQL.key, [hash]);
    owners.set(hash, row ? String(row.workspace_id) : null);
  }
  const accounts = new Map<string, { plan: string; status: string }>();
  for (const workspace of new Set(ops.filter((op) => op.metered || op.paid).map((op) => op.workspace))) {
    const [row] = await exec(trx, SQL.account, [workspace]);
    if (row) accounts.set(workspace, { plan: String(row.plan), status: String(row.status) });
  }
  return ops.map((op) => ({
    keyValid: !op.keyHash || owners.get(op.keyHash) === op.workspace,
    refusal: refusalOf(op, accounts.get(op.workspace)),
  }));
}

/**
 * The charges of the allowed requests (valid key, within the limit, not refused by the plan): per
 * workspace all at once when its balance covers each in arrival order (one UPDATE), otherwise one
 * by one, each only if it still fits. Usage rows go in with the charges that pay for them.
 */
export async function charge(exec: Exec, trx: AccountsExecutor, ops: AdmitOp[], counts: Array<number | null>, window: number): Promise<Admission[]> {
  const checks = await verify(exec, trx, ops);
  const out: Admission[] = ops.map((op, i) => {
    const c = counts[i] ?? null;
    const { keyValid, refusal } = checks[i]!;
    const allowed = c === null || c <= op.limit!;
    const admissible = allowed && keyValid && refusal === null;
    // Nothing to take: admitted as soon as the limit, the key and the plan allow it.
    return { count: c, window, allowed, keyValid, refusal, charged: admissible && op.credits === 0 && op.required === 0, remaining: null };
  });
  const paying = ops.map((op, i) => ({ op, i }))
    .filter(({ op, i }) => out[i]!.allowed && out[i]!.keyValid && out[i]!.refusal === null && (op.credits > 0 || op.required > 0));
  const paid: AdmitOp[] = [];
  for (const [workspace, list] of groupBy(paying, ({ op }) => op.workspace)) {
    let total = 0;
    let need = 0;
    for (const { op } of list) {
      need = Math.max(need, total + Math.max(op.credits, op.required));
      total += op.credits;
    }
    const [taken] = await exec(trx, SQL.take, [total, workspace, need]);
    if (taken) {
      // Balance after each request = after the batch + what later requests of the batch took.
      let later = total;
      const after = readInt(taken.credits);
      for (const { op, i } of list) {
        later -= op.credits;
        out[i] = { ...out[i]!, charged: true, remaining: after + later };
        paid.push(op);
      }
      continue;
    }
    for (const { op, i } of list) {
      const [row] = await exec(trx, SQL.take, [op.credits, workspace, Math.max(op.credits, op.required)]);
      if (row) {
        out[i] = { ...out[i]!, charged: true, remaining: readInt(row.credits) };
        paid.push(op);
      } else {
        const [balance] = await exec(trx, SQL.balance, [workspace]);
        out[i] = { ...out[i]!, remaining: balance ? readInt(balance.credits) : 0 };
      }
    }
  }
  for (const op of paid) {
    const r = op.row;
    if (r) await exec(trx, SQL.insert, [r.id, r.workspace_id, r.endpoint, r.url, op.credits, r.status, r.error, r.duration_ms, r.result_id, r.run_id, r.created_at, r.finished_at]);
  }
  return out;
}

/** Finishes usage rows; refunds go back to their workspaces. The balance after a refund, per op (null without one). */
export async function finish(exec: Exec, trx: AccountsExecutor, ops: FinishOp[]): Promise<Array<number | null>> {
  const finishedAt = nowIso();
  for (const op of ops) await exec(trx, SQL.finish, [op.status, op.error, Math.round(op.durationMs), op.resultId, op.refund, finishedAt, op.usageId]);
  const balances = new Map<string, number>();
  for (const [workspace, list] of groupBy(ops.filter((op) => op.refund > 0), (op) => op.workspace)) {
    const [row] = await exec(trx, SQL.give, [list.reduce((sum, op) => sum + op.refund, 0), workspace]);
    balances.set(workspace, row ? readInt(row.credits) : 0);
  }
  return ops.map((op) => (op.refund > 0 ? balances.get(op.workspace) ?? null : null));
}
