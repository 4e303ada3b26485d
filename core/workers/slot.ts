/**
 * One thread of the worker pool: starts the shared entry (worker.ts) with the pool's preload
 * modules and per-worker `init`, posts tasks to it, and hands what the thread says or does (a
 * reply, an uncaught error, an exit) to the pool. It knows nothing of queues or deadlines.
 */
import type { PoolSettings } from './options.ts';
import { crashMessage, type InitMessage, type NiceMessage, type RunMessage, type SerializedError, type WorkerReply } from './task.ts';

/** Bun's Worker can stop holding the process open while idle; the DOM typings do not know it. */
type BunWorker = Worker & { ref(): void; unref(): void };

const ENTRY = new URL('./worker.ts', import.meta.url).href;

export interface SlotEvents<T> {
  reply(slot: WorkerSlot<T>, reply: WorkerReply): void;
  /** The thread ended on its own; `what` is "crashed (<message>)" or "stopped unexpectedly". */
  lost(slot: WorkerSlot<T>, what: string): void;
}

export class WorkerSlot<T> {
  /** The task it runs now. */
  task?: T;
  startedAt = 0;
  /** The last heap size the worker reported for its task. */
  heapBytes = 0;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Settles when the worker's `init` is done (at once without one); rejects with its error. */
  readonly ready: Promise<void>;
  /** `ready` has resolved. */
  isReady = false;
  private readonly worker: BunWorker;
  private onReady?: (error?: SerializedError) => void;

  constructor(settings: Pick<PoolSettings, 'smol' | 'preload' | 'init' | 'nice' | 'reviveError'>, events: SlotEvents<T>) {
    const { init } = settings;
    this.worker = new Worker(ENTRY, { smol: settings.smol, preload: settings.preload }) as BunWorker;
    if (settings.nice) this.worker.postMessage({ type: 'nice', value: settings.nice } satisfies NiceMessage);
    this.ready = init
      ? new Promise((resolve, reject) => {
          this.onReady = (error) => (error ? reject(settings.reviveError(error)) : resolve());
        })
      : Promise.resolve();
    this.ready.then(
      () => (this.isReady = true),
      () => {},
    ); // a task on this worker reports the error; prestart() hands it on
    if (init)
      this.worker.postMessage({ type: 'init', module: init.ref.module, name: init.ref.name, input: init.input } satisfies InitMessage);
    this.worker.unref();
    this.worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => {
      if (event.data.type === 'ready') this.onReady?.(event.data.error);
      events.reply(this, event.data);
    });
    this.worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      events.lost(this, `crashed (${crashMessage(event)})`);
    });
    this.worker.addEventListener('close', () => events.lost(this, 'stopped unexpectedly'));
  }

  /** Hands the worker a task (and holds the process open meanwhile); throws when the input cannot be cloned. */
  run(task: T, message: RunMessage, transfer: Transferable[]): void {
    clearTimeout(this.idleTimer);
    this.task = task;
    this.startedAt = performance.now();
    this.heapBytes = 0;
    this.worker.ref();
    this.worker.postMessage(message, transfer);
  }

  /** Between tasks: the process may exit, and after `idleMs` the worker goes. */
  idle(idleMs: number, stop: () => void): void {
    this.task = undefined;
    this.worker.unref();
    if (Number.isFinite(idleMs)) {
      this.idleTimer = setTimeout(stop, idleMs);
      this.idleTimer.unref?.();
    }
  }

  terminate(): void {
    clearTimeout(this.idleTimer);
    this.task = undefined;
    this.onReady?.({ name: 'WorkerPoolError', message: 'the worker stopped before its setup was done', fields: { kind: 'closed' } });
    this.worker.terminate();
  }
}
