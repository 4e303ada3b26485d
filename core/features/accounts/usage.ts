/**
 * Reads of the usage log for GET /v1/usage and GET /v1/results/run/{id}: totals by endpoint and by
 * day over a time range, the runs themselves newest first, and one run — always within one
 * workspace (another workspace's run is not found). Days are UTC: the first ten characters of the
 * ISO timestamps, the same expression on both dialects.
 */
import { sql, type Selectable } from 'kysely';
import type { InjectionToken } from 'tsyringe';
import { readInt } from '../../storage/values.ts';
import type { AccountsDb, UsageLogTable } from './tables.ts';

export interface UsageRun {
  id: string;
  endpoint: string;
  url: string | null;
  credits: number;
  status: string;
  error: string | null;
  durationMs: number;
  resultId: string | null;
  runId: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface UsageRange {
  /** Inclusive ISO timestamp. */
  from: string;
  /** Exclusive ISO timestamp. */
  to: string;
  endpoint?: string;
}

export interface UsageTotals {
  runs: number;
  credits: number;
  byEndpoint: Array<{ endpoint: string; runs: number; credits: number }>;
  byDay: Array<{ day: string; runs: number; credits: number }>;
  /** Each day's runs and credits of each endpoint (a chart's series), by day then endpoint. */
  byDayEndpoint: Array<{ day: string; endpoint: string; runs: number; credits: number }>;
}

export interface UsageReader {
  totals(workspace: string, range: UsageRange): Promise<UsageTotals>;
  runs(workspace: string, range: UsageRange, page: { offset: number; limit: number }): Promise<{ items: UsageRun[]; total: number }>;
  get(workspace: string, id: string): Promise<UsageRun | null>;
}

export const UsageToken = Symbol('UsageReader') as InjectionToken<UsageReader>;

const toRun = (row: Selectable<UsageLogTable>): UsageRun => ({
  id: row.id,
  endpoint: row.endpoint,
  url: row.url,
  credits: readInt(row.credits),
  status: row.status,
  error: row.error,
  durationMs: readInt(row.duration_ms),
  resultId: row.result_id,
  runId: row.run_id,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

export function createUsageReader(db: AccountsDb): UsageReader {
  const scoped = (workspace: string, range: UsageRange) =>
    db
      .selectFrom('usage_log')
      .where('workspace_id', '=', workspace)
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.to)
      .$if(range.endpoint !== undefined, (q) => q.where('endpoint', '=', range.endpoint!));
  const sums = (eb: { fn: { countAll: () => any; sum: (c: 'credits') => any } }) => [
    eb.fn.countAll().as('runs'),
    eb.fn.sum('credits').as('credits'),
  ];
  const number = (value: unknown) => (value === null || value === undefined ? 0 : readInt(value));
  const day = sql<string>`substr(created_at, 1, 10)`;

  return {
    async totals(workspace, range) {
      const [all, byEndpoint, byDay, byDayEndpoint] = await Promise.all([
        scoped(workspace, range)
          .select((eb) => sums(eb))
          .executeTakeFirstOrThrow(),
        scoped(workspace, range)
          .select('endpoint')
          .select((eb) => sums(eb))
          .groupBy('endpoint')
          .orderBy('endpoint')
          .execute(),
        scoped(workspace, range)
          .select(day.as('day'))
          .select((eb) => sums(eb))
          .groupBy(day)
          .orderBy(day)
          .execute(),
        scoped(workspace, range)
          .select([day.as('day'), 'endpoint'])
          .select((eb) => sums(eb))
          .groupBy([day, 'endpoint'])
          .orderBy(day)
          .orderBy('endpoint')
          .execute(),
      ]);
      const row = all as Record<string, unknown>;
      return {
        runs: number(row.runs),
        credits: number(row.credits),
        byEndpoint: byEndpoint.map((r: Record<string, unknown>) => ({
          endpoint: String(r.endpoint),
          runs: number(r.runs),
          credits: number(r.credits),
        })),
        byDay: byDay.map((r: Record<string, unknown>) => ({ day: String(r.day), runs: number(r.runs), credits: number(r.credits) })),
        byDayEndpoint: byDayEndpoint.map((r: Record<string, unknown>) => ({
          day: String(r.day),
          endpoint: String(r.endpoint),
          runs: number(r.runs),
          credits: number(r.credits),
        })),
      };
    },

    async runs(workspace, range, page) {
      const [counted, rows] = await Promise.all([
        scoped(workspace, range)
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirstOrThrow(),
        scoped(workspace, range)
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
      ]);
      return { items: rows.map(toRun), total: readInt(counted.total) };
    },

    async get(workspace, id) {
      const row = await db
        .selectFrom('usage_log')
        .selectAll()
        .where('workspace_id', '=', workspace)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRun(row) : null;
    },
  };
}
