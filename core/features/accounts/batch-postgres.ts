/**
 * A batch (batch.ts) on Postgres as one statement, so the whole batch costs one round trip. The
 * requests are summed per workspace here and sent as arrays (`unnest`); data-modifying CTEs add
 * each workspace's requests to its counter of the minute, take each workspace's charges in one
 * conditional UPDATE — only when every request's key is still valid, the plan allows them, the
 * counter stays within the limit and the balance covers every charge in arrival order, the usual
 * case — insert the usage rows of what was paid and finish earlier rows. `set_config(..., true)`
 * makes the statement's implicit transaction commit asynchronously. Any other workspace is
 * returned as `unsettled`: the caller sorts out its requests one by one (batch-steps.ts) with the
 * counts this statement made.
 */
import { sql } from 'kysely';
import { nowIso, readInt } from '../../storage/values.ts';
import type { Admission, AdmitOp, FinishOp } from './batch.ts';
import { groupBy, refusalOf } from './batch-steps.ts';
import type { AccountsDb } from './tables.ts';

interface Row {
  kind: string;
  id: string | null;
  value: unknown;
}

interface Plan {
  workspace: string;
  metered: boolean;
  paid: boolean;
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
    return {
      workspace, counted: ops.filter((op) => op.limit !== undefined).length, limit, total, need,
      metered: ops.some((op) => op.metered === true), paid: ops.some((op) => op.paid === true),
    };
  });
}

export function postgresBatch(admits: AdmitOp[], finishes: FinishOp[], window: number) {
  const plans = plansOf(admits);
  const hits = plans.filter((p) => p.counted > 0);
  const rows = admits.filter((op) => op.row);
  const keyed = admits.filter((op) => op.keyHash);
  return sql<Row>`
    with cfg as (select set_config('synchronous_commit', 'off', true) as v),
    hits as (
      insert into rate_limits (workspace_id, window_start, count)
      select ws, ${window}::bigint, n from unnest(${hits.map((p) => p.workspace)}::text[], ${hits.map((p) => p.counted)}::int[]) as t(ws, n)
      on conflict (workspace_id, window_start) do update set count = rate_limits.count + excluded.count
      returning workspace_id, count
    ),
    sent as (
      select * from unnest(${keyed.map((op) => op.workspace)}::text[], ${keyed.map((op) => op.keyHash)}::text[]) as t(ws, hash)
    ),
    keys as (
      select key_hash, workspace_id from api_keys where key_hash in (select hash from sent) and revoked_at is null
    ),
    accounts as (
      select id, plan, status from workspaces where id = any(${plans.filter((p) => p.metered || p.paid).map((p) => p.workspace)}::text[])
    ),
    paying as (
      select * from unnest(${plans.map((p) => p.workspace)}::text[], ${plans.map((p) => p.total)}::bigint[], ${plans.map((p) => p.need)}::bigint[],
        ${plans.map((p) => p.limit)}::int[], ${plans.map((p) => p.metered)}::boolean[], ${plans.map((p) => p.paid)}::boolean[])
        as t(ws, total, need, lim, metered, paid)
      where need > 0
    ),
    debited as (
      update workspaces w set credits = w.credits - p.total
      from paying p left join hits h on h.workspace_id = p.ws
      where w.id = p.ws and w.credits >= p.need and (p.lim is null or h.count <= p.lim)
        and (not p.metered or w.status = 'active') and (not p.paid or (w.plan <> 'free' and w.status = 'active'))
        and not exists (select 1 from sent s where s.ws = p.ws and not exists (select 1 from keys k where k.key_hash = s.hash and k.workspace_id = s.ws))
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
    select 'hit' as kind, workspace_id as id, count::text as value from hits
    union all select 'key', key_hash, workspace_id from keys
    union all select 'account', id, plan || ' ' || status from accounts
    union all select 'debit', id, credits::text from debited
    union all select 'cfg', null, ((select count(*) from inserted) + (select count(*) from finished))::text from cfg`;
}

export async function runPostgresBatch(db: AccountsDb, admits: AdmitOp[], finishes: FinishOp[], window: number): Promise<{ admissions: Admission[]; unsettled: number[] }> {
  const { rows } = await postgresBatch(admits, finishes, window).execute(db);
  const counts = new Map<string, number>();
  const after = new Map<string, number>();
  const owners = new Map<string, string>();
  const accounts = new Map<string, { plan: string; status: string }>();
  for (const row of rows) {
    if (row.kind === 'account') {
      const [plan = '', status = ''] = String(row.value).split(' ');
      accounts.set(row.id!, { plan, status });
    }
    if (row.kind === 'hit') counts.set(row.id!, readInt(row.value));
    else if (row.kind === 'debit') after.set(row.id!, readInt(row.value));
    else if (row.kind === 'key') owners.set(row.id!, String(row.value));
  }
  // Each counted request's place in its workspace's minute, in arrival order.
  const placed = new Map<string, number>();
  const plans = new Map(plansOf(admits).map((p) => [p.workspace, p]));
  const admissions: Admission[] = admits.map((op) => {
    const keyValid = !op.keyHash || owners.get(op.keyHash) === op.workspace;
    const checked = { keyValid, refusal: null, charged: false, remaining: null };
    if (op.limit === undefined) return { count: null, window, allowed: true, ...checked };
    const first = (counts.get(op.workspace) ?? 0) - plans.get(op.workspace)!.counted;
    const place = (placed.get(op.workspace) ?? 0) + 1;
    placed.set(op.workspace, place);
    return { count: first + place, window, allowed: first + place <= op.limit, ...checked };
  });
  // What the statement took, handed out in arrival order: each request sees the balance after its
  // own charge. The other requests the caller settles one by one, with the plan checked there.
  const later = new Map([...after.keys()].map((workspace) => [workspace, plans.get(workspace)!.total]));
  const unsettled: number[] = [];
  admits.forEach((op, i) => {
    const admission = admissions[i]!;
    if (op.credits === 0 && op.required === 0) {
      // Nothing to take: settled here, with the plan as the statement read it.
      const refusal = refusalOf(op, accounts.get(op.workspace));
      admissions[i] = { ...admission, refusal, charged: admission.allowed && admission.keyValid && refusal === null };
      return;
    }
    const balance = after.get(op.workspace);
    if (balance === undefined) {
      if (admission.allowed && admission.keyValid) unsettled.push(i);
      return;
    }
    const rest = later.get(op.workspace)! - op.credits;
    later.set(op.workspace, rest);
    admissions[i] = { ...admission, charged: true, remaining: balance + rest };
  });
  return { admissions, unsettled };
}
