/**
 * One attempt at a claimed job (queue.ts claims it and tracks it while it runs): the kind's handler
 * runs, then the job is finished, retried with exponential backoff and jitter (unless the error is
 * `permanent` or the attempts are used up) or given up to the kind's `onFailed`, with one log line
 * per attempt saying how it ended.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../config-schema.ts';
import { withRequestId } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import type { ClaimedJob, JobHandler, JobHandlerOptions } from '../services.ts';
import type { JobStore } from './store.ts';

type RetryConfig = Pick<TrawlConfig['jobs'], 'retryBaseMs' | 'retryMaxMs'>;

/** Retry n waits base·2^(n-1), capped, times a random factor in [0.5, 1.5): retries of jobs that failed together spread out. */
export function backoffMs(attempt: number, config: RetryConfig, random: () => number = Math.random): number {
  const exponential = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.round(exponential * (0.5 + random()));
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);
const isPermanent = (err: unknown) => typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true;

export interface Kind {
  handler: JobHandler;
  options: JobHandlerOptions;
  concurrency: number;
  active: number;
  /** Claim at the next round: something may have become due (a local enqueue, a free slot). */
  due: boolean;
  /** The last claim found the kind drained: do not ask again before this (ms) unless it becomes due. */
  idleUntil: number;
}

export interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
  released: boolean;
}

/** What an attempt needs of its queue. */
export interface AttemptContext {
  store: JobStore;
  worker: string;
  config: RetryConfig;
  logger: Logger;
  metrics?: Metrics;
}

type Ended = (outcome: 'done' | 'retried' | 'failed', extra?: Record<string, unknown>) => void;

/**
 * Runs the kind's handler on a claimed job, then finishes it, schedules its retry or gives it up;
 * settles once that bookkeeping is done (when the bookkeeping itself fails, the lease lapses and
 * the job runs again).
 */
export function runAttempt(ctx: AttemptContext, kind: Kind, entry: Running): Promise<void> {
  const { job, controller } = entry;
  const { store, worker, config, logger, metrics } = ctx;
  // Everything the run logs (the handler's lines, a retry, a failure) carries the request that started the job.
  const started = performance.now();
  // One line per run of a job, at its end: what ran, how it ended, how long it took.
  const ended: Ended = (outcome, extra = {}) => {
    metrics?.jobs.inc({ kind: job.kind, outcome });
    const line = { job: job.id, kind: job.kind, outcome, ms: Math.round(performance.now() - started), attempt: job.attempt, ...extra };
    if (outcome === 'failed') logger.warn(line, 'job finished');
    else logger.info(line, 'job finished');
  };
  return withRequestId(job.requestId, async () => {
    try {
      if (job.attempt > job.maxAttempts) {
        // Only a lapsed lease gets here: the worker running the last attempt stopped.
        await giveUp(ctx, kind, job, 'The worker running the last attempt stopped before it finished', ended);
        return;
      }
      await kind.handler(job, controller.signal);
      await store.finish(job.id, worker);
      ended('done');
    } catch (err) {
      if (entry.released) return;
      const message = messageOf(err);
      if (isPermanent(err) || job.attempt >= job.maxAttempts) await giveUp(ctx, kind, job, message, ended);
      else {
        logger.debug({ err, job: job.id, kind: job.kind, attempt: job.attempt }, 'job failed; retrying');
        ended('retried', { error: message });
        await store.retry(job.id, worker, new Date(Date.now() + backoffMs(job.attempt, config)), message);
      }
    }
  }).catch((err) => logger.error({ err, job: job.id }, 'job bookkeeping failed; its lease will lapse and it will run again'));
}

async function giveUp(ctx: AttemptContext, kind: Kind, job: ClaimedJob, message: string, ended: Ended): Promise<void> {
  const { store, worker, config, logger } = ctx;
  try {
    await kind.options.onFailed?.(job, message);
  } catch (err) {
    logger.error({ err, job: job.id, kind: job.kind }, 'recording a failed job failed; retrying later');
    await store.retry(job.id, worker, new Date(Date.now() + backoffMs(job.attempt, config)), message);
    return;
  }
  ended('failed', { error: message });
  await store.fail(job.id, worker, message);
}
