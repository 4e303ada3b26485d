/**
 * A batch (batch.ts) on Postgres as one statement, so the whole batch costs one round trip. The
 * requests are summed per workspace here and sent as arrays (`unnest`); data-modifying CTEs add
 * each workspace's requests to its counter of the minute, take each workspace's charges in one
 * conditional UPDATE — only when the counter stays within the limit and the balance covers every
 * charge in arrival order, the usual case — insert the usage rows of what was paid and finish
 * earlier rows. `set_config(..., true)` makes the statement's implicit transaction commit
 * asynchronously. A workspace at its limit or short of credits is returned as `unpaid`: the
 * caller sorts out its requests one by one (batch-steps.ts) with the counts this statement made.
 */
import { sql } from 'kysely';
import { nowIso, readInt } from '../../storage/values.ts';
import type { Admission, AdmitOp, FinishOp } from './batch.ts';
import { groupBy } from './batch-steps.ts';
import type { AccountsDb } from './tables.ts';

interface Row {
  kind: string;
  id: string | null;
  value: unknown;
}

interface Plan {
  workspace: string;
  /** Requests counted against the limit, and the tightest limit among them. */
  counted: number;
  limit: number | null;
  total: number;
  need: number;
}

function plansOf(admits: AdmitOp[]): Plan[] {
  return [...groupBy(admits, (op) => op.workspace)].map(([workspace, ops]) => {
    let total = 0;
    let need = 0;
    let limit: number | null = null;
    for (const op of ops) {
      need = Math.max(need, total + Math.max(op.credits, op.required));
      total += op.credits;
      if (op.limit !== undefined) limit = Math.min(limit ?? op.limit, op.limit);
    }
    return { workspace, counted: ops.filter((op) => op.limit !== undefined).length, limit, total, need };
  });
}

export function postgresBatch(admits: AdmitOp[], finishes: FinishOp[], window: number) {
  const plans = plansOf(admits);
  const hits = plans.filter((p) => p.counted > 0);
  const rows = admits.filter((op) => op.row);
  return sql<Row>`
    with cfg as (select set_config('synchronous_commit', 'off', true) as v),
    hits as (
      insert into rate_limits (workspace_id, window_start, count)
      select ws, ${window}::bigint, n from unnest(${hits.map((p) => p.workspace)}::text[], ${hits.map((p) => p.counted)}::int[]) as t(ws, n)
      on conflict (workspace_id, window_start) do update set count = rate_limits.count + excluded.count
      returning workspace_id, count
    ),
    paying as (
      select * from unnest(${plans.map((p) => p.workspace)}::text[], ${plans.map((p) => p.total)}::bigint[],
        ${plans.map((p) => p.need)}::bigint[], ${plans.map((p) => p.limit)}::int[]) as t(ws, total, need, lim)
      where need > 0
    ),
    debited as (
      update workspaces w set credits = w.credits - p.total
      from paying p left join hits h on h.workspace_id = p.ws
      where w.id = p.ws and w.credits >= p.need and (p.lim is null or h.count <= p.lim)
      returning w.id, w.credits
    ),
    inserted as (
      insert into usage_log (id, workspace_id, endpoint, url, credits, status, error, duration_ms, result_id, run_id, created_at, finished_at)
      select r.id, r.ws, r.endpoint, r.url, r.credits, 'running', null, 0, null, null, r.started, null
      from unnest(${rows.map((op) => op.row!.id)}::text[], ${rows.map((op) => op.workspace)}::text[], ${rows.map((op) => op.row!.endpoint)}::text[],
        ${rows.map((op) => op.row!.url)}::text[], ${rows.map((op) => op.credits)}::bigint[], ${rows.map((op) => op.row!.created_at)}::text[])
        as r(id, ws, endpoint, url, credits, started)
      join debited d on d.id = r.ws
      returning id
    ),
    f as (
      select * from unnest(${finishes.map((op) => op.usageId)}::text[], ${finishes.map((op) => op.status)}::text[], ${finishes.map((op) => op.error)}::text[],
        ${finishes.map((op) => Math.round(op.durationMs))}::int[], ${finishes.map((op) => op.resultId)}::text[]) as t(uid, status, error, dur, result)
    ),
    finished as (
      update usage_log u set status = f.status, error = f.error, duration_ms = f.dur, result_id = f.result, finished_at = ${nowIso()}
      from f where u.id = f.uid
      returning u.id
    )
    select 'hit' as kind, workspace_id as id, count as value from hits
    union all select 'debit', id, credits from debited
    union all select 'cfg', null, (select count(*) from inserted) + (select count(*) from finished) from cfg`;
}

export async function runPostgresBatch(db: AccountsDb, admits: AdmitOp[], finishes: FinishOp[], window: number): Promise<{ admissions: Admission[]; unpaid: number[] }> {
  const { rows } = await postgresBatch(admits, finishes, window).execute(db);
  const counts = new Map<string, number>();
  const after = new Map<string, number>();
  for (const row of rows) {
    if (row.kind === 'hit') counts.set(row.id!, readInt(row.value));
    else if (row.kind === 'debit') after.set(row.id!, readInt(row.value));
  }
  // Each counted request's place in its workspace's minute, in arrival order.
  const placed = new Map<string, number>();
  const plans = new Map(plansOf(admits).map((p) => [p.workspace, p]));
  const admissions: Admission[] = admits.map((op) => {
    if (op.limit === undefined) return { count: null, window, allowed: true, charged: false, remaining: null };
    const first = (counts.get(op.workspace) ?? 0) - plans.get(op.workspace)!.counted;
    const place = (placed.get(op.workspace) ?? 0) + 1;
    placed.set(op.workspace, place);
    return { count: first + place, window, allowed: first + place <= op.limit, charged: false, remaining: null };
  });
  // What the statement took, handed out in arrival order: each request sees the balance after its
  // own charge. A workspace it did not charge is left to the caller, request by request.
  const later = new Map([...after.keys()].map((workspace) => [workspace, plans.get(workspace)!.total]));
  const unpaid: number[] = [];
  admits.forEach((op, i) => {
    const admission = admissions[i]!;
    if (op.credits === 0 && op.required === 0) {
      admissions[i] = { ...admission, charged: admission.allowed };
      return;
    }
    const balance = after.get(op.workspace);
    if (balance === undefined) {
      if (admission.allowed) unpaid.push(i);
      return;
    }
    const rest = later.get(op.workspace)! - op.credits;
    later.set(op.workspace, rest);
    admissions[i] = { ...admission, charged: true, remaining: balance + rest };
  });
  return { admissions, unpaid };
}
