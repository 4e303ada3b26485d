/**
 * A task as the worker pool (pool.ts) holds it from submission until it settles: its record, how
 * one is made (its deadline timer and abort listener armed), its place in the queue, the message
 * that starts it on a worker, and the errors the pool fails it with.
 */
import type { PoolSettings, RunOptions } from './options.ts';
import type { WorkerSlot } from './slot.ts';
import { WorkerPoolError, type RunMessage, type SerializedError, type TaskRef } from './task.ts';

export interface Task {
  id: number;
  ref: TaskRef<unknown, unknown>;
  input: unknown;
  options: RunOptions;
  heavy: boolean;
  /** Place in the queue: smaller first. */
  order: number;
  /** Whose task (a workspace): a group holding its share of the workers lets others' tasks pass (share.ts). */
  group?: string;
  resolve(output: unknown): void;
  reject(error: unknown): void;
  cleanup(): void;
  slot?: Slot;
  settled?: boolean;
  /** A limited section (section.ts) running now: its timer and the error a crash during it becomes. */
  section?: { timer: ReturnType<typeof setTimeout>; crashError: SerializedError };
}

export type Slot = WorkerSlot<Task>;

export const MB = 2 ** 20;

export function abortedError(signal: AbortSignal): WorkerPoolError {
  return new WorkerPoolError('aborted', 'the task was aborted', { cause: signal.reason });
}

export function heapError(memoryLimitMb: number, heapBytes: number): WorkerPoolError {
  return new WorkerPoolError('memory', `the task's heap passed ${memoryLimitMb} MB (${Math.round(heapBytes / MB)} MB)`);
}

/** A task whose worker died (`what`: "crashed (<message>)", …) fails with its limited section's own error, else `crashed`. */
export function lostError(task: Task, what: string, settings: PoolSettings): Error {
  const inSection = task.section?.crashError;
  return inSection
    ? settings.reviveError({ ...inSection, message: inSection.message.replace('{reason}', what) })
    : new WorkerPoolError('crashed', `the worker ${what}`);
}

/** A new task whose deadline and signal hand it to `fail`; `cleanup` disarms both. */
export function createTask(
  id: number,
  ref: TaskRef<unknown, unknown>,
  input: unknown,
  options: RunOptions,
  defaultTimeoutMs: number,
  { resolve, reject, fail }: Pick<Task, 'resolve' | 'reject'> & { fail(task: Task, error: WorkerPoolError): void },
): Task {
  const { signal } = options;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const onAbort = () => fail(task, abortedError(signal!));
  // setTimeout fires at once for Infinity and past 2^31 ms; such a deadline is none.
  const timer =
    timeoutMs < 2 ** 31
      ? setTimeout(() => fail(task, new WorkerPoolError('timeout', `the task took longer than ${timeoutMs} ms`)), timeoutMs)
      : undefined;
  const task: Task = {
    id,
    ref,
    input,
    options,
    heavy: options.heavy ?? false,
    order: options.order ?? performance.now(),
    group: options.group,
    resolve,
    reject,
    cleanup: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return task;
}

/** Behind every task of the same or a smaller order; from the back, where nearly every task goes. */
export function enqueue(queue: Task[], task: Task): void {
  let at = queue.length;
  while (at > 0 && queue[at - 1]!.order > task.order) at--;
  queue.splice(at, 0, task);
}

export function runMessage(task: Task, settings: PoolSettings): RunMessage {
  const { id, ref, input } = task;
  return {
    type: 'run',
    id,
    module: ref.module,
    name: ref.name,
    input,
    sampleMs: settings.sampleMs,
    memoryLimitBytes: settings.memoryLimitMb * MB,
    collectEveryMs: settings.collectEveryMs,
  };
}
