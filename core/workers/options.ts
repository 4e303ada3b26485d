/**
 * The worker pool's settings (with the defaults that size it to the machine), per-task options
 * and the statistics it reports for /health.
 */
import { availableParallelism } from 'node:os';
import type { SerializedError, TaskRef, WorkerFailureKind } from './task.ts';
import { reviveError } from './task.ts';

export interface WorkerPoolOptions {
  /** Workers at most; default `os.availableParallelism()`. 0 = run tasks in-process. */
  size?: number;
  /** Tasks that may wait for a worker; one more is refused with `queue-full`. Default 256. */
  maxQueue?: number;
  /** Tasks marked heavy that may run at once; default half the pool, at least 1. */
  maxHeavy?: number;
  /** Deadline of a task that names none, in ms. Default 30 s. */
  timeoutMs?: number;
  /** A worker whose JavaScript heap passes this is stopped (its task fails with `memory`). 0 = none. */
  memoryLimitMb?: number;
  /** The whole process's RSS budget: past it, the busy task most likely to blame is stopped. 0 = none. */
  maxRssMb?: number;
  /** How often heaps and RSS are sampled, in ms. Default 100. */
  sampleMs?: number;
  /**
   * A worker runs a full garbage collection after a task when its last one is this long ago (ms),
   * and so does the pool's own thread after a reply (collect.ts), so resident memory follows what
   * the threads hold. Default 0: when the runtime decides.
   */
  collectEveryMs?: number;
  /**
   * The calling thread collects only while its heap is under this many bytes; above, the runtime's
   * own collections keep it in proportion, and a forced one would stall requests (collect.ts).
   * Default 64 MiB.
   */
  collectBelowBytes?: number;
  /**
   * Worker threads run at this nice value (Linux; 0 = the process's own priority), so when the
   * cores are short the calling thread and other processes (a browser rendering for a request)
   * go first and the workers take what is left. Elsewhere it is ignored.
   */
  nice?: number;
  /** Bun's small-heap mode for workers: less memory, slower; not a limit. */
  smol?: boolean;
  /** Module URLs every new worker loads before its first task, so replacements start warm. */
  preload?: string[];
  /**
   * A task every new worker (a replacement too) runs once as soon as it starts, before any other:
   * per-worker setup, such as booting plugins from a config, that tasks would otherwise each carry
   * across the thread boundary. When it fails, the worker's task fails with its error and the
   * worker is dropped (the next task gets a new one that tries again). Size 0 runs it once here.
   */
  init?: { ref: TaskRef<any, unknown>; input: unknown };
  /** An idle worker is stopped after this long (ms); default never, workers stay warm. */
  idleMs?: number;
  /** Rebuilds a task's error on the calling thread (e.g. back into a TrawlError). */
  reviveError?: (error: SerializedError) => Error;
}

export interface RunOptions {
  /** Deadline in ms from now; default the pool's `timeoutMs`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Heavy tasks (large inputs) run at most `maxHeavy` at once; lighter ones may pass them in the queue. */
  heavy?: boolean;
  /**
   * Where the task waits in the queue: smaller first, equal ones first come first served. Default:
   * `performance.now()` at submission (plain first come, first served). A caller whose work comes
   * back for a second task (a page fetched again) passes the first one's time, so that work does
   * not queue a second time behind everything that arrived meanwhile.
   */
  order?: number;
  /**
   * Whose task (a workspace): while a task of a group below its share of the workers
   * (size / groups with tasks) waits, a group at its share does not take another worker.
   */
  group?: string;
  /** Buffers moved to the worker instead of copied (they become unusable here). */
  transfer?: Transferable[];
}

export interface WorkerPoolStats {
  size: number;
  workers: number;
  /** Workers that finished their `init` (all of them without one). */
  ready: number;
  busy: number;
  queued: number;
  heavyRunning: number;
  completed: number;
  /** Workers terminated and replaced after a timeout, abort, crash or memory stop. */
  replaced: number;
  failed: Record<WorkerFailureKind, number>;
}

export type PoolSettings = Required<Omit<WorkerPoolOptions, 'preload' | 'init'>> & Pick<WorkerPoolOptions, 'init'> & { preload: string[] };

export function resolveOptions(options: WorkerPoolOptions): PoolSettings {
  const size = Math.max(0, Math.floor(options.size ?? availableParallelism()));
  return {
    size,
    maxQueue: options.maxQueue ?? 256,
    maxHeavy: Math.max(1, options.maxHeavy ?? Math.floor(size / 2)),
    timeoutMs: options.timeoutMs ?? 30_000,
    memoryLimitMb: options.memoryLimitMb ?? 0,
    maxRssMb: options.maxRssMb ?? 0,
    sampleMs: options.sampleMs ?? 100,
    collectEveryMs: options.collectEveryMs ?? 0,
    collectBelowBytes: options.collectBelowBytes ?? 64 * 2 ** 20,
    nice: options.nice ?? 0,
    smol: options.smol ?? false,
    preload: options.preload ?? [],
    init: options.init,
    idleMs: options.idleMs ?? Infinity,
    reviveError: options.reviveError ?? reviveError,
  };
}
