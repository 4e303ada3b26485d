/**
 * The SQL of the job queue, one function per state change. A job row is `queued` until a worker
 * claims it (`running`, with `locked_by` and a lease until `locked_until`), and is deleted when it
 * finishes; it goes back to `queued` for a retry, a lapsed lease or a shutdown release, and ends
 * as `failed` when it gives up. Every change made by a worker names the worker, so a worker whose
 * lease lapsed and was taken over cannot touch the row any more.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ClaimedJob, JobSpec, QueueKindStats } from '../services.ts';
import type { Database, JobsTable } from '../storage/schema.ts';
import { currentRequestId } from '../logger.ts';
import { insertRows, readInt, readJson } from '../storage/values.ts';

export type Executor = Kysely<Database> | Transaction<Database>;

/** Rows of new jobs; exported so a caller can enqueue inside its own transaction. */
export async function insertJobs(db: Executor, specs: readonly JobSpec[], defaultMaxAttempts: number): Promise<string[]> {
  if (specs.length === 0) return [];
  const now = new Date().toISOString();
  const requestId = currentRequestId() ?? null;
  const rows = specs.map((spec) => ({
    id: crypto.randomUUID(),
    kind: spec.kind,
    workspace_id: spec.workspace,
    group_id: spec.group ?? null,
    concurrency_key: spec.key ?? null,
    payload: JSON.stringify(spec.payload),
    status: 'queued',
    priority: spec.priority ?? 0,
    attempts: 0,
    max_attempts: spec.maxAttempts ?? defaultMaxAttempts,
    run_at: (spec.runAt ?? new Date()).toISOString(),
    locked_by: null,
    locked_until: null,
    last_error: null,
    request_id: requestId,
    created_at: now,
    updated_at: now,
  }));
  await insertRows(db, 'jobs', rows);
  return rows.map((r) => r.id);
}

function toClaimed(row: Selectable<JobsTable>): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    workspace: row.workspace_id,
    payload: readJson<Record<string, unknown>>(row.payload),
    group: row.group_id,
    attempt: readInt(row.attempts),
    maxAttempts: readInt(row.max_attempts),
    ...(row.request_id ? { requestId: row.request_id } : {}),
  };
}

export interface ClaimRequest {
  kind: string;
  limit: number;
  worker: string;
  leaseMs: number;
  /** Keys not to claim now. */
  busyKeys: readonly string[];
}

export function createJobStore(db: Kysely<Database>, dialect: 'sqlite' | 'postgres') {
  const lockedBy = (id: string, worker: string) =>
    db.updateTable('jobs').where('id', '=', id).where('locked_by', '=', worker).where('status', '=', 'running');

  return {
    /**
     * Takes up to `limit` due jobs of a kind, most urgent first. On Postgres the candidate rows
     * are locked with SKIP LOCKED, so concurrent workers in any number of processes never claim
     * the same row and never wait for each other; SQLite has one writer, so no locking is needed.
     */
    async claim(request: ClaimRequest): Promise<ClaimedJob[]> {
      const now = new Date();
      const rows = await db
        .with('next', (qb) =>
          qb
            .selectFrom('jobs')
            .select('id')
            .where('kind', '=', request.kind)
            .where('status', '=', 'queued')
            .where('run_at', '<=', now.toISOString())
            .$if(request.busyKeys.length > 0, (q) =>
              q.where((eb) => eb.or([eb('concurrency_key', 'is', null), eb('concurrency_key', 'not in', [...request.busyKeys])])),
            )
            .orderBy('priority')
            .orderBy('run_at')
            .limit(request.limit)
            .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
        )
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          attempts: eb('attempts', '+', 1),
          locked_by: request.worker,
          locked_until: new Date(now.getTime() + request.leaseMs).toISOString(),
          updated_at: now.toISOString(),
        }))
        .where('id', 'in', (eb) => eb.selectFrom('next').select('next.id'))
        .returningAll()
        .execute();
      return rows.map(toClaimed);
    },

    /** Done: the row goes away (a lapsed lease taken over by another worker keeps it). */
    async finish(id: string, worker: string): Promise<void> {
      await db.deleteFrom('jobs').where('id', '=', id).where('locked_by', '=', worker).execute();
    },

    async retry(id: string, worker: string, runAt: Date, error: string): Promise<void> {
      await lockedBy(id, worker)
        .set({
          status: 'queued',
          run_at: runAt.toISOString(),
          last_error: error,
          locked_by: null,
          locked_until: null,
          updated_at: new Date().toISOString(),
        })
        .execute();
    },

    async fail(id: string, worker: string, error: string): Promise<void> {
      await lockedBy(id, worker)
        .set({ status: 'failed', last_error: error, locked_by: null, locked_until: null, updated_at: new Date().toISOString() })
        .execute();
    },

    /** Shutdown: back to the queue at once, and the interrupted run does not count as an attempt. */
    async release(id: string, worker: string): Promise<void> {
      const now = new Date().toISOString();
      await lockedBy(id, worker)
        .set((eb) => ({
          status: 'queued',
          attempts: eb('attempts', '-', 1),
          run_at: now,
          locked_by: null,
          locked_until: null,
          updated_at: now,
        }))
        .execute();
    },

    /** Extends the leases of the jobs this worker is still running. */
    async renew(ids: readonly string[], worker: string, leaseMs: number): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable('jobs')
        .set({ locked_until: new Date(Date.now() + leaseMs).toISOString() })
        .where('id', 'in', [...ids])
        .where('locked_by', '=', worker)
        .where('status', '=', 'running')
        .execute();
    },

    /** Jobs whose worker stopped renewing (killed, hung, partitioned) go back to the queue. */
    async reclaimExpired(): Promise<number> {
      const now = new Date().toISOString();
      const result = await db
        .updateTable('jobs')
        .set({ status: 'queued', locked_by: null, locked_until: null, run_at: now, updated_at: now })
        .where('status', '=', 'running')
        .where('locked_until', '<', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Backlog per kind: waiting, due, running, and how late the oldest due job is. */
    async stats(now = new Date()): Promise<QueueKindStats[]> {
      const at = now.toISOString();
      const rows = await db
        .selectFrom('jobs')
        .select((eb) => [
          'kind',
          'status',
          eb.fn.countAll<number | string>().as('count'),
          eb.fn.count<number | string>(eb.case().when('run_at', '<=', at).then(1).end()).as('due'),
          eb.fn.min(eb.case().when('run_at', '<=', at).then(eb.ref('run_at')).end()).as('oldest_due'),
        ])
        .where('status', 'in', ['queued', 'running'])
        .groupBy(['kind', 'status'])
        .execute();
      const kinds = new Map<string, QueueKindStats>();
      for (const row of rows) {
        const kind = kinds.get(row.kind) ?? { kind: row.kind, queued: 0, due: 0, running: 0, lagSeconds: 0 };
        kinds.set(row.kind, kind);
        if (row.status === 'running') {
          kind.running = readInt(row.count);
          continue;
        }
        kind.queued = readInt(row.count);
        kind.due = readInt(row.due);
        const oldest = row.oldest_due as string | null;
        if (oldest) kind.lagSeconds = Math.max(0, (now.getTime() - Date.parse(oldest)) / 1000);
      }
      return [...kinds.values()].sort((a, b) => a.kind.localeCompare(b.kind));
    },

    /** A worker process reports in (at start and with every lease renewal). */
    async heartbeat(worker: string, kinds: readonly string[], startedAt: string): Promise<void> {
      const now = new Date().toISOString();
      await db
        .insertInto('job_workers')
        .values({ id: worker, kinds: JSON.stringify(kinds), started_at: startedAt, seen_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now, kinds: JSON.stringify(kinds) }))
        .execute();
      // Reports older than a day are of processes long gone.
      await db
        .deleteFrom('job_workers')
        .where('seen_at', '<', new Date(Date.now() - 86_400_000).toISOString())
        .execute();
    },

    async leaveWorkers(worker: string): Promise<void> {
      await db.deleteFrom('job_workers').where('id', '=', worker).execute();
    },

    /** Worker processes that reported in since `since`. */
    async workersAlive(since: Date): Promise<number> {
      const row = await db
        .selectFrom('job_workers')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('seen_at', '>=', since.toISOString())
        .executeTakeFirst();
      return readInt(row?.n ?? 0);
    },

    async cancelGroup(group: string): Promise<number> {
      const result = await db.deleteFrom('jobs').where('group_id', '=', group).where('status', '=', 'queued').executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
