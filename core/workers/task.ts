/**
 * What crosses the boundary between the worker pool and its worker threads: typed task handles
 * (a module URL plus the name of the function it exports), the typed error every pool failure
 * raises, and the messages the two sides exchange. Errors thrown by a task travel as plain data
 * and are rebuilt on the calling thread with their name, message and own fields (such as a
 * `TrawlError`'s `code` and `status`), because structured clone keeps only the bare `Error`.
 */

/** Why the pool gave up on a task; the caller maps these to HTTP answers (503 for `queue-full`). */
export type WorkerFailureKind = 'timeout' | 'aborted' | 'crashed' | 'memory' | 'queue-full' | 'closed';

export class WorkerPoolError extends Error {
  constructor(
    readonly kind: WorkerFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WorkerPoolError';
  }
}

/** Handed to every task function; in-process (pool size 0) its checks do nothing. */
export interface TaskContext {
  /**
   * Reports this worker's heap to the pool and throws once it is over the limit. Long synchronous
   * loops call it now and then, since the worker's own sampler only runs when the task yields.
   * Cheap: it reads the heap at most every few milliseconds.
   */
  checkMemory(): void;
}

export type TaskFunction<I = any, O = unknown> = (input: I, ctx: TaskContext) => O | Promise<O>;

/** A typed handle on `export function <name>` of `module`; inputs and outputs must be structured-cloneable. */
export interface TaskRef<I, O> {
  readonly module: string;
  readonly name: string;
  /** Never set: carries the input and output types. */
  readonly types?: (input: I) => O;
}

/**
 * Names a task by its module and export, typed from the function itself:
 * `task<typeof import('./parse.ts').parse>(new URL('./parse.ts', import.meta.url), 'parse')`.
 */
export function task<F extends TaskFunction>(module: URL | string, name: string): TaskRef<Parameters<F>[0], Awaited<ReturnType<F>>> {
  return Object.freeze({ module: typeof module === 'string' ? module : module.href, name });
}

/** Bun's message of an uncaught worker error is a source excerpt ending in "error: <message>" and a stack. */
export function crashMessage(event: ErrorEvent): string {
  const message = event.error instanceof Error ? event.error.message : event.message;
  const line = /^\s*(?:\w*Error|error): (.+)$/m.exec(message ?? '')?.[1] ?? message?.split('\n').find((l) => l.trim());
  return line?.trim().slice(0, 200) || 'unknown error';
}

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** Own enumerable fields that survived structured clone (code, status, stage, …). */
  fields: Record<string, unknown>;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    try {
      fields[key] = structuredClone(value);
    } catch {
      // A field that cannot cross a thread (a function, a socket) is left behind.
    }
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

/** The default rebuild: an `Error` with the original name, message, stack and fields. */
export function reviveError(data: SerializedError): Error {
  if (data.name === 'WorkerPoolError' && typeof data.fields.kind === 'string') {
    return new WorkerPoolError(data.fields.kind as WorkerFailureKind, data.message);
  }
  const error = Object.assign(new Error(data.message), data.fields);
  error.name = data.name;
  if (data.stack) error.stack = data.stack;
  return error;
}

/** Pool → worker, once, right after it starts: the pool's per-worker setup (`init`). */
export interface InitMessage {
  type: 'init';
  module: string;
  name: string;
  input: unknown;
}

/** Pool → worker, right after it starts when the pool runs its workers below normal priority. */
export interface NiceMessage {
  type: 'nice';
  value: number;
}

/** Pool → worker. */
export interface RunMessage {
  type: 'run';
  id: number;
  module: string;
  name: string;
  input: unknown;
  /** How often the worker reports its heap while the task yields. */
  sampleMs: number;
  /** The heap size past which `checkMemory` throws; 0 = no limit. */
  memoryLimitBytes: number;
  /** A full collection after a task when the last one is this long ago (ms); 0 = as the runtime sees fit. */
  collectEveryMs: number;
}

/** Worker → pool. `initFailed`: the worker's setup failed, so it cannot run anything. */
export type WorkerReply =
  | { type: 'done'; id: number; ok: true; output: unknown; heapBytes: number }
  | { type: 'done'; id: number; ok: false; error: SerializedError; heapBytes: number; initFailed?: boolean }
  | { type: 'heap'; id: number; heapBytes: number }
  | { type: 'ready'; error?: SerializedError }
  /** A limited section of the task starts (section.ts) or ends. */
  | { type: 'section'; id: number; timeoutMs: number; timeoutError: SerializedError; crashError: SerializedError }
  | { type: 'section-end'; id: number };
