/**
 * A small pool of worker threads for document parsers. Parsers are third-party code fed hostile
 * bytes: in a worker, one that hangs is stopped at its time limit and one that crashes (even
 * asynchronously, where no try/catch reaches) loses only its thread; the main thread and every
 * other request carry on. Workers stay warm between files (a cold start costs ~250 ms of module
 * loading, a warm parse of a small PDF ~25 ms), are replaced after any failure, and are unref'd
 * while idle so they never keep a CLI run alive.
 */
import type { ParsedDocument } from './types.ts';
import type { ParseReply, ParseRequest } from './worker.ts';

export type FailureKind = 'refused' | 'failed' | 'crashed' | 'timeout';

/** Why a parse did not produce a document; `message` finishes "Could not read PDF: …". */
export class ParserFailure extends Error {
  constructor(readonly kind: FailureKind, message: string) {
    super(message);
    this.name = 'ParserFailure';
  }
}

export interface ParseLimits {
  timeoutMs: number;
  /** Aborting (the scrape's deadline) stops the worker and rejects with the signal's reason. */
  signal?: AbortSignal;
}

interface Task {
  request: Omit<ParseRequest, 'id'>;
  limits: ParseLimits;
  resolve(result: ParsedDocument): void;
  reject(error: unknown): void;
}

/** Bun's Worker can stop holding the process open while idle; the DOM typings do not know it. */
type BunWorker = Worker & { ref(): void; unref(): void };

interface Slot {
  worker: BunWorker;
  /** Settles the running task; set while busy. */
  settle?: (reply: ParseReply | ParserFailure) => void;
  idleTimer?: ReturnType<typeof setTimeout>;
}

const WORKER_URL = new URL('./worker.ts', import.meta.url).href;

/** Bun's message of an uncaught worker error is a source excerpt ending in "error: <message>" and a stack. */
function crashMessage(event: ErrorEvent): string {
  const message = event.error instanceof Error ? event.error.message : event.message;
  const line = /^\s*(?:\w*Error|error): (.+)$/m.exec(message ?? '')?.[1] ?? message?.split('\n').find((l) => l.trim());
  return line?.trim().slice(0, 200) || 'unknown error';
}

export class ParserPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 0;

  constructor(readonly size: number, private readonly idleMs = 30_000) {}

  run(parserUrl: string, bytes: Uint8Array, options: unknown, limits: ParseLimits): Promise<ParsedDocument> {
    return new Promise((resolve, reject) => {
      if (limits.signal?.aborted) return reject(limits.signal.reason);
      const task: Task = { request: { parserUrl, bytes, options }, limits, resolve, reject };
      this.queue.push(task);
      // A task still waiting for a worker leaves the queue when its scrape is abandoned.
      limits.signal?.addEventListener('abort', () => {
        const index = this.queue.indexOf(task);
        if (index >= 0) {
          this.queue.splice(index, 1);
          reject(limits.signal!.reason);
        }
      }, { once: true });
      this.drain();
    });
  }

  /** Workers alive right now (busy or idle). */
  get workers(): number {
    return this.slots.length;
  }

  /** Stops every worker; running tasks fail as crashed. */
  close(): void {
    for (const slot of [...this.slots]) this.discard(slot);
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => !s.settle) ?? (this.slots.length < this.size ? this.spawn() : undefined);
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_URL) as BunWorker };
    slot.worker.addEventListener('message', (event: MessageEvent<ParseReply>) => slot.settle?.(event.data));
    slot.worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      slot.settle?.(new ParserFailure('crashed', `the parser crashed (${crashMessage(event)})`));
      this.discard(slot);
    });
    slot.worker.addEventListener('close', () => {
      slot.settle?.(new ParserFailure('crashed', 'the parser stopped unexpectedly'));
      this.discard(slot);
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    clearTimeout(slot.idleTimer);
    slot.worker.ref();
    const id = ++this.nextId;
    const { signal, timeoutMs } = task.limits;
    const onAbort = () => {
      finish(() => task.reject(signal!.reason));
      this.discard(slot);
    };
    const timer = setTimeout(() => {
      finish(() => task.reject(new ParserFailure('timeout', `parsing took longer than ${timeoutMs} ms`)));
      this.discard(slot);
    }, timeoutMs);
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      slot.settle = undefined;
      outcome();
    };
    slot.settle = (reply) => {
      if (!(reply instanceof ParserFailure) && reply.id !== id) return;
      finish(() => {
        if (reply instanceof ParserFailure) task.reject(reply);
        else if (reply.ok) task.resolve(reply.result);
        else task.reject(new ParserFailure(reply.refused ? 'refused' : 'failed', reply.message));
      });
      if (!(reply instanceof ParserFailure)) this.release(slot);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    slot.worker.postMessage({ id, ...task.request } satisfies ParseRequest);
  }

  private release(slot: Slot): void {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => this.discard(slot), this.idleMs);
    slot.idleTimer.unref?.();
    this.drain();
  }

  private discard(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    clearTimeout(slot.idleTimer);
    slot.settle = undefined;
    slot.worker.terminate();
    this.drain();
  }
}

/** Two to four workers: enough that one hostile file cannot stall every other document. */
export const parserPool = new ParserPool(Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2)));
