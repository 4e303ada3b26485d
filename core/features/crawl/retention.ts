/**
 * How long finished crawls and batches are kept (`crawl.retentionHours`): when a run expires, and
 * the `crawl.prune` job that deletes expired runs with their frontier rows (pages and their
 * results) and jobs. An expired run is not found by the service from the moment it expires, so
 * when the prune runs only decides how long the rows take up space. The job is a subject of the
 * shared schedule (its row comes with migration crawl.0003_retention), so each slot is pruned by
 * one worker process however many there are. Every statement deletes a bounded chunk in its own
 * transaction and a run's own row goes last: a run of 100k pages never holds a long transaction,
 * and a prune cut short (a shutdown) leaves an expired row that the next slot finishes.
 */
import type { Logger } from 'pino';
import type { JobHandler } from '../../services.ts';
import { isTerminal, TERMINAL_STATUSES } from './present.ts';
import type { RunRow } from './rows.ts';
import type { CrawlDb } from './tables.ts';

export const PRUNE_JOB = 'crawl.prune';
/** The one subject of the prune's schedule. */
export const PRUNE_SUBJECT = 'crawl.retention';
/** Expired runs are already invisible; hourly keeps the leftover rows to at most an hour's worth. */
export const PRUNE_INTERVAL_SECONDS = 3600;

const HOUR_MS = 3_600_000;
/** Expired runs read per query, oldest first. */
const RUNS_PER_ROUND = 20;
/** Rows deleted per statement (each its own transaction). */
const ROWS_PER_STATEMENT = 1000;

type Timed = Pick<RunRow, 'status' | 'completedAt' | 'updatedAt'>;

/** When a finished run ended; a row finished by code older than `completed_at` on every end state ended at its last change. */
const endOf = (run: Timed): number | null => (isTerminal(run.status) ? Date.parse(run.completedAt ?? run.updatedAt) : null);

/**
 * When the run is deleted: its end plus the retention. A run still going has no end yet, so it
 * shows now plus the retention, the earliest it can expire (Firecrawl's status always carries a
 * TTL). Null when runs are kept forever.
 */
export function expiresAt(run: Timed, retentionHours: number, now = Date.now()): string | null {
  if (retentionHours === 0) return null;
  return new Date((endOf(run) ?? now) + retentionHours * HOUR_MS).toISOString();
}

/** A finished run whose retention has passed: not found any more, whether or not it was pruned yet. */
export function isExpired(run: Timed, retentionHours: number, now = Date.now()): boolean {
  const end = endOf(run);
  return retentionHours > 0 && end !== null && end + retentionHours * HOUR_MS <= now;
}

/** The run as status answers show it: with its `expiresAt`. */
export const withExpiry = (run: RunRow, retentionHours: number, now = Date.now()): RunRow => ({
  ...run,
  expiresAt: expiresAt(run, retentionHours, now),
});

/** Runs that ended at or before this (ISO, as `completed_at` is stored) are expired; null when runs are kept forever. */
export function expiredUntil(retentionHours: number, now = Date.now()): string | null {
  return retentionHours === 0 ? null : new Date(now - retentionHours * HOUR_MS).toISOString();
}

/** Runs `statement` (a bounded delete) until it deletes less than a full chunk; rows deleted. */
async function drain(statement: () => Promise<{ numDeletedRows: bigint }>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number((await statement()).numDeletedRows);
    total += deleted;
    if (deleted < ROWS_PER_STATEMENT) return total;
  }
}

/**
 * One run's frontier rows, then its jobs (a page job that gave up stays in the queue's table as
 * `failed`), then the run itself; how many frontier rows went.
 */
async function deleteRun(db: CrawlDb, id: string): Promise<number> {
  const pages = await drain(() =>
    db
      .deleteFrom('crawl_urls')
      .where('crawl_id', '=', id)
      .where('url_hash', 'in', db.selectFrom('crawl_urls').select('url_hash').where('crawl_id', '=', id).limit(ROWS_PER_STATEMENT))
      .executeTakeFirst(),
  );
  await drain(() =>
    db
      .deleteFrom('jobs')
      .where('id', 'in', db.selectFrom('jobs').select('id').where('group_id', '=', id).limit(ROWS_PER_STATEMENT))
      .executeTakeFirst(),
  );
  await db.deleteFrom('crawls').where('id', '=', id).execute();
  return pages;
}

/** Deletes every run expired as of `now`, oldest first, until done or `signal` aborts. */
export async function pruneExpired(
  db: CrawlDb,
  retentionHours: number,
  options: { now?: number; signal?: AbortSignal } = {},
): Promise<{ runs: number; pages: number }> {
  const pruned = { runs: 0, pages: 0 };
  const until = expiredUntil(retentionHours, options.now);
  if (until === null) return pruned;
  for (;;) {
    const expired = await db
      .selectFrom('crawls')
      .select('id')
      .where('status', 'in', [...TERMINAL_STATUSES])
      .where('completed_at', '<=', until)
      .orderBy('completed_at')
      .limit(RUNS_PER_ROUND)
      .execute();
    for (const { id } of expired) {
      if (options.signal?.aborted) return pruned;
      pruned.pages += await deleteRun(db, id);
      pruned.runs++;
    }
    if (expired.length < RUNS_PER_ROUND) return pruned;
  }
}

/** The `crawl.prune` job: one slot of the schedule. */
export function pruneJob(db: CrawlDb, retentionHours: number, logger: Logger): JobHandler {
  return async (_job, signal) => {
    const pruned = await pruneExpired(db, retentionHours, { signal });
    if (pruned.runs > 0) logger.info({ ...pruned, retentionHours }, 'expired crawls and batches deleted');
  };
}
