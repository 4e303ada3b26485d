/**
 * The durable job queue (core/services.ts `JobQueue`): jobs are rows (store.ts), and every process
 * that runs workers loops over the kinds it handles, claiming due jobs up to each kind's
 * concurrency. While a job runs its lease is renewed; a worker that dies stops renewing and any
 * process takes the job over once the lease lapses. A thrown error is retried with exponential
 * backoff and jitter unless it is `permanent` or the attempts are used up; then the kind's
 * `onFailed` records the failure. `stop()` stops claiming, lets running jobs finish until the
 * deadline and hands the rest back to the queue. The shared schedule (scheduler.ts) ticks while
 * the workers run. A process running workers reports in with its lease upkeep (`job_workers`), so
 * any process can tell how many workers are alive. One attempt at a job, its retry and failure
 * bookkeeping: attempt.ts.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { TrawlConfig } from '../config-schema.ts';
import { TrawlError } from '../errors.ts';
import type { Metrics } from '../metrics.ts';
import type { QueueStats, ClaimedJob, JobHandler, JobHandlerOptions, JobQueue, JobSpec } from '../services.ts';
import type { Database } from '../storage/schema.ts';
import { runAttempt, type AttemptContext, type Kind, type Running } from './attempt.ts';
import { createJobStore, insertJobs, type Executor, type JobStore } from './store.ts';
import { Scheduler } from './scheduler.ts';

export type JobsConfig = TrawlConfig['jobs'];

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
  private readonly attempts: AttemptContext;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: 'sqlite' | 'postgres',
    private readonly config: JobsConfig,
    private readonly logger: Logger,
    metrics?: Metrics,
  ) {
    this.store = createJobStore(db, dialect);
    this.scheduler = new Scheduler(db, dialect, this, config, logger.child({ component: 'scheduler' }));
    this.attempts = { store: this.store, worker: this.worker, config, logger, metrics };
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
    entry.done = runAttempt(this.attempts, kind, entry).finally(() => {
      kind.active--;
      this.running.delete(job.id);
      this.poke([job.kind]);
    });
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
