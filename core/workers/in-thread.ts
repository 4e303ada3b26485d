/**
 * A worker pool of size 0 runs its tasks here, on the calling thread: no isolation at all, for
 * comparisons and debugging. The pool's `init` runs once, before the first task, and again after
 * a failure.
 */
import type { WorkerPoolOptions } from './options.ts';
import type { TaskContext, TaskFunction, TaskRef } from './task.ts';

const NO_CHECKS: TaskContext = { checkMemory() {} };

async function callHere(ref: TaskRef<unknown, unknown>, input: unknown): Promise<unknown> {
  const fn = ((await import(ref.module)) as Record<string, unknown>)[ref.name];
  if (typeof fn !== 'function') throw new Error(`${ref.module} exports no function "${ref.name}"`);
  return (fn as TaskFunction)(input, NO_CHECKS);
}

export class InThread {
  private initDone?: Promise<unknown>;

  constructor(private readonly init: WorkerPoolOptions['init']) {}

  /** The task's output, after `init`; rejects with `init`'s error or the task's. */
  async call(ref: TaskRef<unknown, unknown>, input: unknown): Promise<unknown> {
    const { init } = this;
    if (init) {
      this.initDone ??= callHere(init.ref, init.input);
      await this.initDone.catch((err: unknown) => {
        this.initDone = undefined;
        throw err;
      });
    }
    return callHere(ref, input);
  }
}
