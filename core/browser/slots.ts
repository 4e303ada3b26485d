/**
 * The browser pool's limits on a job: its context slot (at most `browser.maxContexts` jobs hold
 * one at a time, the rest wait in arrival order and may give up through their AbortSignal) and its
 * deadline once it runs.
 */
import { TrawlError } from '../errors.ts';
import type { BrowserJobOptions } from '../services.ts';

interface Waiter {
  grant(): void;
  fail(err: unknown): void;
}

export function cancelled(signal: AbortSignal): TrawlError {
  return signal.reason instanceof TrawlError ? signal.reason : new TrawlError('timeout', 'Browser rendering was cancelled');
}

export class ContextSlots {
  private readonly waiters: Waiter[] = [];
  inUse = 0;

  constructor(private readonly max: number) {}

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled(signal));
    if (this.inUse < this.max) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(cancelled(signal!));
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Hands the slot straight to the next waiter, so a burst cannot overtake the queue. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.inUse--;
  }

  /** Every waiting job fails with `err` (the pool is closing). */
  failAll(err: unknown): void {
    for (const waiter of this.waiters.splice(0)) waiter.fail(err);
  }
}

/** Races the job's work against its deadline and its signal; the pool cleans up the loser by closing the context. */
export async function withinDeadline<T>(work: Promise<T>, options: BrowserJobOptions, defaultTimeoutMs: number): Promise<T> {
  const { signal } = options;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TrawlError('timeout', `Browser rendering timed out after ${timeoutMs} ms`)), timeoutMs);
    onAbort = () => reject(cancelled(signal!));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => {}); // after the deadline wins, the closing context rejects the work; nobody is listening
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
