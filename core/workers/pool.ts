/**
 * A pool of Bun Workers for CPU work that must not stall the server thread: parsing, transforms,
 * formats. A task is a module URL plus the name of a function it exports (see task.ts); every
 * worker runs the same entry (worker.ts), which imports the module once and keeps it, so the
 * pool knows nothing of what it runs and plugins can bring their own task modules. What every
 * task would otherwise carry (a config, booted plugins) is the pool's `init`, run once per worker.
 *
 * Tasks wait in order (first come first served unless a caller names an earlier place; a group
 * holding its share of the workers lets other groups' tasks pass, share.ts). Each has
 * a hard deadline, counted from submission (queue time included) and an optional AbortSignal.
 * When either fires, the caller's promise rejects at once and a running task's worker is
 * terminated and replaced: a tight loop cannot be asked to stop, only killed. Part of a task can
 * run under its own shorter limit (section.ts). A worker that crashes (an uncaught error, even in
 * a callback long after the task returned) takes only its own task down. Memory: see memory.ts.
 * Size 0 runs tasks on the calling thread (no isolation at all: a synchronous task blocks the
 * thread and the deadline fires only when it yields) for comparisons and debugging.
 */
import { periodicCollector, type Collector } from './collect.ts';
import { InThread } from './in-thread.ts';
import { pickSuspect, RssWatchdog } from './memory.ts';
import { pickNext } from './share.ts';
import { resolveOptions, type PoolSettings, type RunOptions, type WorkerPoolOptions, type WorkerPoolStats } from './options.ts';
import { abortedError, createTask, enqueue, heapError, lostError, MB, runMessage, type Slot, type Task } from './pending.ts';
import { WorkerSlot } from './slot.ts';
import { WorkerPoolError, type TaskRef, type WorkerReply } from './task.ts';

export type { RunOptions, WorkerPoolOptions, WorkerPoolStats } from './options.ts';
export { task, WorkerPoolError, type TaskContext, type TaskRef, type WorkerFailureKind } from './task.ts';

export class WorkerPool {
  readonly size: number;
  private readonly settings: PoolSettings;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private readonly watchdog: RssWatchdog;
  private nextId = 0;
  private inProcess = 0;
  /** Size 0: where tasks run instead. */
  private readonly inThread: InThread;
  private closed = false;
  /** This (the calling) thread's collections: the replies' outputs are garbage here soon after. */
  private readonly collector: Collector;
  private counts = { completed: 0, replaced: 0, failed: { timeout: 0, aborted: 0, crashed: 0, memory: 0, 'queue-full': 0, closed: 0 } };

  constructor(options: WorkerPoolOptions = {}) {
    this.settings = resolveOptions(options);
    this.size = this.settings.size;
    this.inThread = new InThread(this.settings.init);
    this.collector = periodicCollector({ maxBytes: this.settings.collectBelowBytes });
    this.watchdog = new RssWatchdog(this.settings.maxRssMb * MB, this.settings.sampleMs, (rss) => this.overBudget(rss));
  }

  /** Runs `ref` on `input`; rejects with a WorkerPoolError when the pool stops it, else with the task's own error. */
  run<I, O>(ref: TaskRef<I, O>, input: I, options: RunOptions = {}): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const { signal } = options;
      if (this.closed) return reject(new WorkerPoolError('closed', 'the worker pool is closed'));
      if (signal?.aborted) return reject(abortedError(signal));
      const task = createTask(++this.nextId, ref as TaskRef<unknown, unknown>, input, options, this.settings.timeoutMs, {
        resolve: resolve as (output: unknown) => void,
        reject,
        fail: (task, error) => this.fail(task, error),
      });
      if (this.size === 0) return this.runHere(task);
      enqueue(this.queue, task);
      this.drain();
      if (this.queue.length > this.settings.maxQueue && this.queue.includes(task)) {
        this.fail(task, new WorkerPoolError('queue-full', `the worker pool is busy: ${this.settings.maxQueue} tasks are already waiting`));
      }
    });
  }

  stats(): WorkerPoolStats {
    return {
      size: this.size,
      workers: this.slots.length,
      ready: this.slots.filter((s) => s.isReady).length,
      busy: this.inProcess + this.slots.filter((s) => s.task).length,
      queued: this.queue.length,
      heavyRunning: this.heavyRunning(),
      completed: this.counts.completed,
      replaced: this.counts.replaced,
      failed: { ...this.counts.failed },
    };
  }

  /**
   * Starts every worker now (each runs `init` at once) instead of on the first tasks; settles when
   * all are ready, rejecting with the first setup error. A server calls this at start-up.
   */
  async prestart(): Promise<void> {
    while (!this.closed && this.slots.length < this.size) this.spawn();
    const errors = await Promise.all(
      this.slots.map((slot) =>
        slot.ready.then(
          () => undefined,
          (err: unknown) => err,
        ),
      ),
    );
    const failed = errors.find((err) => err !== undefined);
    if (failed !== undefined) throw failed;
  }

  /** Stops every worker; waiting and running tasks fail with `closed`. */
  close(): void {
    this.closed = true;
    for (const task of [...this.queue, ...this.slots.flatMap((s) => (s.task ? [s.task] : []))]) {
      this.fail(task, new WorkerPoolError('closed', 'the worker pool was closed'));
    }
    for (const slot of [...this.slots]) this.discard(slot, false);
    this.watchdog.stop();
  }

  private heavyRunning(): number {
    return this.slots.filter((s) => s.task?.heavy).length;
  }

  /** Size 0: the task runs on this thread; the deadline and abort still reject the caller. */
  private async runHere(task: Task): Promise<void> {
    this.inProcess++;
    try {
      const output = await this.inThread.call(task.ref, task.input);
      if (this.settle(task, () => task.resolve(output))) this.counts.completed++;
    } catch (err) {
      if (this.settle(task, () => task.reject(err))) this.counts.completed++;
    } finally {
      this.inProcess--;
    }
  }

  /** Starts waiting tasks, in queue order among those allowed to run (heavy ones wait for a heavy slot; share.ts). */
  private drain(): void {
    while (!this.closed && this.queue.length > 0) {
      const heavyFull = this.heavyRunning() >= this.settings.maxHeavy;
      const index = pickNext(
        this.queue,
        this.slots.flatMap((s) => (s.task ? [s.task] : [])),
        this.size,
        heavyFull,
      );
      if (index < 0) return;
      const slot = this.slots.find((s) => !s.task) ?? (this.slots.length < this.size ? this.spawn() : undefined);
      if (!slot) return;
      this.start(slot, this.queue.splice(index, 1)[0]!);
    }
  }

  private spawn(): Slot {
    const slot: Slot = new WorkerSlot(this.settings, {
      reply: (from, reply) => this.onReply(from, reply),
      lost: (from, what) => this.lose(from, what),
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    task.slot = slot;
    this.watchdog.start();
    const message = runMessage(task, this.settings);
    try {
      slot.run(task, message, task.options.transfer ?? []);
    } catch (err) {
      // The input cannot be cloned: the caller's mistake, the worker is fine.
      this.settle(task, () => task.reject(err));
      this.release(slot);
    }
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'ready') {
      // A worker that cannot set itself up is of no use; an idle one goes now, a busy one after its task fails.
      if (reply.error && !slot.task) this.discard(slot, false);
      return;
    }
    const task = slot.task;
    if (!task || reply.id !== task.id) return;
    if (reply.type === 'section') {
      const timeout = this.settings.reviveError(reply.timeoutError);
      task.section = { crashError: reply.crashError, timer: setTimeout(() => this.fail(task, timeout, 'timeout'), reply.timeoutMs) };
      return;
    }
    if (reply.type === 'section-end') {
      this.endSection(task);
      return;
    }
    slot.heapBytes = reply.heapBytes;
    const limit = this.settings.memoryLimitMb * MB;
    const over = limit > 0 && reply.heapBytes > limit;
    if (reply.type === 'heap') {
      if (over) this.fail(task, heapError(this.settings.memoryLimitMb, reply.heapBytes));
      return;
    }
    this.counts.completed++;
    if (reply.ok) this.settle(task, () => task.resolve(reply.output));
    else this.settle(task, () => task.reject(this.settings.reviveError(reply.error)));
    // A worker that kept a heap over the limit after its task is recycled rather than reused; one
    // whose setup failed is dropped, and the next task gets a new one that tries again.
    if (!reply.ok && reply.initFailed) this.discard(slot, false);
    else if (over) this.discard(slot, true);
    else this.release(slot);
    this.collector.soon(this.settings.collectEveryMs);
  }

  /** Marks a task done once; the first outcome wins (a late reply after a timeout is ignored). */
  private settle(task: Task, outcome: () => void): boolean {
    if (task.settled) return false;
    task.settled = true;
    task.cleanup();
    this.endSection(task);
    if (task.slot?.task === task) task.slot.task = undefined;
    outcome();
    return true;
  }

  private endSection(task: Task): void {
    clearTimeout(task.section?.timer);
    task.section = undefined;
  }

  /** The pool gives up on a task: out of the queue, or its worker terminated and replaced. */
  private fail(task: Task, error: Error, kind = (error as WorkerPoolError).kind): void {
    const slot = task.slot?.task === task ? task.slot : undefined;
    if (!this.settle(task, () => task.reject(error))) return;
    this.counts.failed[kind]++;
    const queued = this.queue.indexOf(task);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (slot) this.discard(slot, !this.closed);
  }

  /**
   * A worker died on its own (`what`: "crashed (<message>)", "stopped unexpectedly"): its task fails
   * (with the section's own error inside a limited section), a fresh worker takes its place.
   */
  private lose(slot: Slot, what: string): void {
    if (!this.slots.includes(slot)) return;
    const { task } = slot;
    // An idle worker that dies is not replaced here: a broken preload would otherwise respawn forever.
    if (!task) {
      this.discard(slot, false);
      return;
    }
    this.fail(task, lostError(task, what, this.settings), 'crashed');
  }

  private release(slot: Slot): void {
    slot.idle(this.settings.idleMs, () => this.discard(slot, false));
    if (!this.slots.some((s) => s.task)) this.watchdog.stop();
    this.drain();
  }

  private discard(slot: Slot, replace: boolean): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.terminate();
    if (replace) {
      this.counts.replaced++;
      this.spawn();
    }
    if (!this.slots.some((s) => s.task)) this.watchdog.stop();
    this.drain();
  }

  private overBudget(rssBytes: number): boolean {
    const suspect = pickSuspect(this.slots.filter((s): s is Slot & { task: Task } => !!s.task));
    if (!suspect) return false;
    const message = `the server passed its memory budget of ${this.settings.maxRssMb} MB (${Math.round(rssBytes / MB)} MB) and this task was the largest`;
    this.fail(suspect.task, new WorkerPoolError('memory', message));
    return true;
  }
}
