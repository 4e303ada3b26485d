/**
 * What /health reports about this process and the service behind it, and the verdict: `down` when
 * the database does not answer (nothing works without it), `degraded` with each reason when a part
 * is impaired — Chromium missing while the browser fetcher is enabled, the job queue stalled (its
 * oldest due job waiting past `health.queueLagSeconds`, or due jobs and no worker process alive), a
 * configured language-model or search provider failing — else `ok`. Every reading is bounded in
 * time, so a hung database or provider makes the answer say so instead of hanging it.
 */
import type { TrawlConfig } from './config-schema.ts';
import type { QueueStats, BrowserPool, BrowserPoolStats, JobQueue, Storage } from './services.ts';
import type { WorkerPoolStats } from './workers/options.ts';

/** How long a database reading may take before it counts as unanswered. */
const DATABASE_TIMEOUT_MS = 2000;

export type HealthStatus = 'ok' | 'degraded' | 'down';

export interface BrowserHealth {
  /** Whether the browser fetcher is enabled at all. */
  enabled: boolean;
  available: boolean;
  /** Why it cannot run (Chromium missing), when it cannot. */
  reason?: string;
  launched: boolean;
  stats: BrowserPoolStats;
}

export interface QueueHealth {
  status: 'ok' | 'stalled' | 'unknown';
  /** Waiting jobs of every kind. */
  depth: number;
  due: number;
  running: number;
  /** How long the oldest due job has waited past its time, in seconds. */
  oldestDueLagSeconds: number;
  workersAlive: number;
  /** Whether this process runs job workers. */
  workersHere: boolean;
  kinds: QueueStats['kinds'];
  error?: string;
}

export interface HealthReport {
  status: HealthStatus;
  reasons: string[];
  database: { dialect: Storage['dialect']; status: 'ok' | 'unreachable' };
  browser: BrowserHealth;
  queue: QueueHealth;
  workers: WorkerPoolStats;
}

export interface HealthSources {
  config: Readonly<TrawlConfig>;
  storage: Storage;
  jobs: JobQueue;
  browser: BrowserPool;
  browserEnabled: boolean;
  workers: () => WorkerPoolStats;
}

const within = <T>(work: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref?.()),
  ]);

async function queueHealth(sources: HealthSources): Promise<QueueHealth> {
  const workersHere = sources.config.role !== 'api';
  try {
    const stats = await within(sources.jobs.stats(), DATABASE_TIMEOUT_MS, 'job queue');
    const sum = (read: (kind: QueueStats['kinds'][number]) => number) => stats.kinds.reduce((total, kind) => total + read(kind), 0);
    const lag = Math.max(0, ...stats.kinds.map((kind) => kind.lagSeconds));
    const due = sum((kind) => kind.due);
    const stalled = lag > sources.config.health.queueLagSeconds || (due > 0 && stats.workersAlive === 0);
    return {
      status: stalled ? 'stalled' : 'ok',
      depth: sum((kind) => kind.queued),
      due,
      running: sum((kind) => kind.running),
      oldestDueLagSeconds: Math.round(lag * 10) / 10,
      workersAlive: stats.workersAlive,
      workersHere,
      kinds: stats.kinds,
    };
  } catch (err) {
    return {
      status: 'unknown',
      depth: 0,
      due: 0,
      running: 0,
      oldestDueLagSeconds: 0,
      workersAlive: 0,
      workersHere,
      kinds: [],
      error: (err as Error).message,
    };
  }
}

function browserHealth(sources: HealthSources): BrowserHealth {
  const reason = sources.browser.unavailableReason();
  const stats = sources.browser.stats();
  return {
    enabled: sources.browserEnabled,
    available: reason === null,
    ...(reason ? { reason } : {}),
    launched: stats.pid !== null,
    stats,
  };
}

/** Readings of the core parts and the verdict; `extraReasons` are the providers' (features report them). */
export async function checkHealth(sources: HealthSources, extraReasons: readonly string[] = []): Promise<HealthReport> {
  const [databaseOk, queue] = await Promise.all([
    within(sources.storage.ping(), DATABASE_TIMEOUT_MS, 'database').catch(() => false),
    queueHealth(sources),
  ]);
  const browser = browserHealth(sources);
  const reasons: string[] = [];
  if (!databaseOk) reasons.push('database unreachable');
  if (browser.enabled && !browser.available) reasons.push(`browser unavailable: ${browser.reason}`);
  if (queue.status === 'stalled') {
    reasons.push(
      queue.due > 0 && queue.workersAlive === 0
        ? `job queue stalled: ${queue.due} due job(s) and no worker process alive`
        : `job queue stalled: the oldest due job has waited ${queue.oldestDueLagSeconds} s (health.queueLagSeconds ${sources.config.health.queueLagSeconds})`,
    );
  }
  reasons.push(...extraReasons);
  const status: HealthStatus = !databaseOk ? 'down' : reasons.length ? 'degraded' : 'ok';
  return {
    status,
    reasons,
    database: { dialect: sources.storage.dialect, status: databaseOk ? 'ok' : 'unreachable' },
    browser,
    queue,
    workers: sources.workers(),
  };
}
