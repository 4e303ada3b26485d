/**
 * The durable job queue (core/services.ts `JobQueue`): jobs are rows (store.ts), and every process
 * that runs workers loops over the kinds it handles, claiming due jobs up to each kind's
 * concurrency. While a job runs its lease is renewed; a worker that dies stops renewing and any
 * process takes the job over once the lease lapses. A thrown error is retried with exponential
 * backoff and jitter unless it is `permanent` or the attempts are used up; then the kind's
 * `onFailed` records the failure. `stop()` stops claiming, lets running jobs finish until the
 * deadline and hands the rest back to the queue. The shared schedule (scheduler.ts) ticks while
 * the workers run. A process running workers reports in with its lease upkeep (`job_workers`), so
 * any process can tell how many workers are alive.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { TrawlConfig } from '../config-schema.ts';
import { TrawlError } from '../errors.ts';
import { withRequestId } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import type { QueueStats, ClaimedJob, JobHandler, JobHandlerOptions, JobQueue, JobSpec } from '../services.ts';
import type { Database } from '../storage/schema.ts';
import { createJobStore, insertJobs, type Executor, type JobStore } from './store.ts';
import { Scheduler } from './scheduler.ts';

export type JobsConfig = TrawlConfig['jobs'];

/** Retry n waits base·2^(n-1), capped, times a random factor in [0.5, 1.5): retries of jobs that failed together spread out. */
export function backoffMs(
  attempt: number,
  config: Pick<JobsConfig, 'retryBaseMs' | 'retryMaxMs'>,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.round(exponential * (0.5 + random()));
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);
const isPermanent = (err: unknown) => typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true;

interface Kind {
  handler: JobHandler;
  options: JobHandlerOptions;
  concurrency: number;
  active: number;
  /** Claim at the next round: something may have become due (a local enqueue, a free slot). */
  due: boolean;
  /** The last claim found the kind drained: do not ask again before this (ms) unless it becomes due. */
  idleUntil: number;
}

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
  released: boolean;
}

export class DbJobQueue implements JobQueue {
  readonly worker = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private readonly store: JobStore;
  /** The shared schedule's ticks run while this process runs workers. */
  readonly scheduler: Scheduler;
  private readonly kinds = new Map<string, Kind>();
  private readonly running = new Map<string, Running>();
  private state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  private loopDone: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  private poked = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private maintaining = false;
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly db: Kysely<Database>,
    dialect: 'sqlite' | 'postgres',
    private readonly config: JobsConfig,
    private readonly logger: Logger,
    private readonly metrics?: Metrics,
  ) {
    this.store = createJobStore(db, dialect);
    this.scheduler = new Scheduler(db, dialect, this, config, logger.child({ component: 'scheduler' }));
  }

  private get leaseMs(): number {
    return this.config.leaseSeconds * 1000;
  }

  async enqueue(spec: JobSpec): Promise<string> {
    const [id] = await this.enqueueMany([spec]);
    return id!;
  }

  async enqueueMany(specs: JobSpec[]): Promise<string[]> {
    const ids = await this.insert(this.db, specs);
    this.poke(specs.map((s) => s.kind));
    return ids;
  }

  /** Enqueues inside the caller's transaction; call `poke()` after it commits. */
  insert(db: Executor, specs: readonly JobSpec[]): Promise<string[]> {
    return insertJobs(db, specs, this.config.maxAttempts);
  }

  handle(kind: string, handler: JobHandler, options: JobHandlerOptions = {}): void {
    if (this.kinds.has(kind)) throw new TrawlError('internal', `A handler for job kind ${kind} is already registered`);
    this.kinds.set(kind, { handler, options, concurrency: Math.max(1, options.concurrency ?? 1), active: 0, due: true, idleUntil: 0 });
    this.poke([kind]);
  }

  cancelGroup(group: string): Promise<number> {
    return this.store.cancelGroup(group);
  }

  async stats(): Promise<QueueStats> {
    const [kinds, workersAlive] = await Promise.all([this.store.stats(), this.store.workersAlive(new Date(Date.now() - this.leaseMs))]);
    return { kinds, workersAlive };
  }

  /**
   * Wakes the claim loop now instead of at the next poll (new work, or a slot came free) for the
   * given kinds, or all. Jobs enqueued by other processes are found by polling.
   */
  poke(kinds?: readonly string[]): void {
    for (const [name, kind] of this.kinds) if (!kinds || kinds.includes(name)) kind.due = true;
    this.poked = true;
    this.wake?.();
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'running';
    this.timer = setInterval(() => void this.maintain(), Math.max(200, Math.floor(this.leaseMs / 3)));
    void this.reportIn();
    this.loopDone = this.loop();
    this.scheduler.start();
    this.logger.info({ worker: this.worker, kinds: [...this.kinds.keys()] }, 'job workers started');
  }

  async stop(deadlineMs = this.config.shutdownGraceMs): Promise<void> {
    if (this.state !== 'running') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    await this.scheduler.stop();
    this.wake?.();
    await this.loopDone;
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Leases keep being renewed meanwhile, so nobody takes over a job that is about to finish.
    await Promise.race([
      all(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, deadlineMs);
      }),
    ]);
    clearTimeout(timer);
    if (this.timer) clearInterval(this.timer);
    for (const run of this.running.values()) {
      run.released = true;
      run.controller.abort(new TrawlError('timeout', 'The worker is shutting down'));
      await this.store
        .release(run.job.id, this.worker)
        .catch((err) => this.logger.error({ err, job: run.job.id }, 'could not release job'));
    }
    // Let aborted handlers unwind before the caller closes the database under them.
    await Promise.race([all(), Bun.sleep(1000)]);
    await this.store.leaveWorkers(this.worker).catch((err) => this.logger.warn({ err }, 'could not sign the worker out'));
    this.state = 'stopped';
  }

  private async loop(): Promise<void> {
    while (this.state === 'running') {
      let more = false;
      try {
        more = await this.claimRound();
      } catch (err) {
        this.logger.error({ err }, 'claiming jobs failed');
      }
      if (!more && this.state === 'running') await this.idle();
    }
  }

  /**
   * One claim per kind that has free slots and may have work (due, or its poll interval passed);
   * true when some kind filled every free slot, so more may be waiting.
   */
  private async claimRound(): Promise<boolean> {
    let more = false;
    this.poked = false;
    for (const [name, kind] of this.kinds) {
      const free = kind.concurrency - kind.active;
      if (free <= 0 || this.state !== 'running' || (!kind.due && Date.now() < kind.idleUntil)) continue;
      kind.due = false;
      const jobs = await this.store.claim({
        kind: name,
        limit: free,
        worker: this.worker,
        leaseMs: this.leaseMs,
        busyKeys: [...(kind.options.busyKeys?.() ?? [])],
      });
      for (const job of jobs) this.run(kind, job);
      if (jobs.length === free) more = true;
      else kind.idleUntil = Date.now() + this.config.pollIntervalMs;
    }
    return more;
  }

  private idle(): Promise<void> {
    if (this.poked) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.config.pollIntervalMs);
      this.wake = done;
    });
  }

  private run(kind: Kind, job: ClaimedJob): void {
    const controller = new AbortController();
    const entry: Running = { job, controller, released: false, done: Promise.resolve() };
    kind.active++;
    this.running.set(job.id, entry);
    // Everything the run logs (the handler's lines, a retry, a failure) carries the request that started the job.
    const started = performance.now();
    // One line per run of a job, at its end: what ran, how it ended, how long it took.
    const ended = (outcome: 'done' | 'retried' | 'failed', extra: Record<string, unknown> = {}) => {
      this.metrics?.jobs.inc({ kind: job.kind, outcome });
      const line = { job: job.id, kind: job.kind, outcome, ms: Math.round(performance.now() - started), attempt: job.attempt, ...extra };
      if (outcome === 'failed') this.logger.warn(line, 'job finished');
      else this.logger.info(line, 'job finished');
    };
    entry.done = withRequestId(job.requestId, async () => {
      try {
        if (job.attempt > job.maxAttempts) {
          // Only a lapsed lease gets here: the worker running the last attempt stopped.
          await this.giveUp(kind, job, 'The worker running the last attempt stopped before it finished', ended);
          return;
        }
        await kind.handler(job, controller.signal);
        await this.store.finish(job.id, this.worker);
        ended('done');
      } catch (err) {
        if (entry.released) return;
        const message = messageOf(err);
        if (isPermanent(err) || job.attempt >= job.maxAttempts) await this.giveUp(kind, job, message, ended);
        else {
          this.logger.debug({ err, job: job.id, kind: job.kind, attempt: job.attempt }, 'job failed; retrying');
          ended('retried', { error: message });
          await this.store.retry(job.id, this.worker, new Date(Date.now() + backoffMs(job.attempt, this.config)), message);
        }
      }
    })
      .catch((err) => this.logger.error({ err, job: job.id }, 'job bookkeeping failed; its lease will lapse and it will run again'))
      .finally(() => {
        kind.active--;
        this.running.delete(job.id);
        this.poke([job.kind]);
      });
  }

  private async giveUp(
    kind: Kind,
    job: ClaimedJob,
    message: string,
    ended: (outcome: 'failed', extra: Record<string, unknown>) => void,
  ): Promise<void> {
    try {
      await kind.options.onFailed?.(job, message);
    } catch (err) {
      this.logger.error({ err, job: job.id, kind: job.kind }, 'recording a failed job failed; retrying later');
      await this.store.retry(job.id, this.worker, new Date(Date.now() + backoffMs(job.attempt, this.config)), message);
      return;
    }
    ended('failed', { error: message });
    await this.store.fail(job.id, this.worker, message);
  }

  private async reportIn(): Promise<void> {
    await this.store
      .heartbeat(this.worker, [...this.kinds.keys()], this.startedAt)
      .catch((err) => this.logger.warn({ err }, 'could not report the worker in'));
  }

  /** Lease upkeep: extend ours, report in, and put back jobs whose worker stopped renewing. */
  private async maintain(): Promise<void> {
    if (this.maintaining) return;
    this.maintaining = true;
    try {
      await this.store.renew([...this.running.keys()], this.worker, this.leaseMs);
      await this.reportIn();
      const reclaimed = await this.store.reclaimExpired();
      if (reclaimed > 0) {
        this.logger.info({ reclaimed }, 'took back jobs whose lease lapsed');
        this.poke();
      }
    } catch (err) {
      this.logger.error({ err }, 'lease upkeep failed');
    } finally {
      this.maintaining = false;
    }
  }
}

export function createJobQueue(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  config: JobsConfig,
  logger: Logger,
  metrics?: Metrics,
): DbJobQueue {
  return new DbJobQueue(db, dialect, config, logger, metrics);
}
