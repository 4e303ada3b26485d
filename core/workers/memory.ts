/**
 * The process-wide memory watchdog of the worker pool. Bun has no per-worker memory limit
 * (`resourceLimits` is ignored, `smol` only changes GC heuristics) and a worker's own heap
 * reports stop while it runs synchronous code, which is exactly when a hostile page allocates
 * gigabytes. Resident memory, though, can be read from the calling thread at any time, and
 * `worker.terminate()` interrupts even a tight loop and hands its heap back. So the pool samples
 * the process's RSS and, past the budget, stops the busy task most likely to blame.
 */
import { Sampler } from '../sampler.ts';

export interface Suspect {
  /** Last heap size the worker reported (0 if it never yielded). */
  heapBytes: number;
  /** When its task started (performance.now()). */
  startedAt: number;
}

/**
 * The task to stop: the largest reported heap, else the longest-running task (a synchronous
 * allocator reports nothing but has usually run the longest).
 */
export function pickSuspect<T extends Suspect>(busy: readonly T[]): T | undefined {
  return [...busy].sort((a, b) => b.heapBytes - a.heapBytes || a.startedAt - b.startedAt)[0];
}

/** New growth, not the last victim's memory still leaving RSS. */
const GROWTH_BYTES = 64 * 2 ** 20;

export class RssWatchdog {
  private readonly sampler: Sampler;
  /**
   * After a kill the freed memory takes a moment to leave RSS, so for a while only growth past
   * the level of that kill (by more than GROWTH_BYTES) picks a second victim: a task that starts
   * right after one was stopped could otherwise run past the budget unchecked meanwhile.
   */
  private quietUntil = 0;
  private rssAtStop = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly sampleMs: number,
    private readonly onOver: (rssBytes: number) => boolean,
    private readonly readRss: () => number = () => process.memoryUsage.rss(),
  ) {
    this.sampler = new Sampler(sampleMs, () => this.sample());
  }

  /** Samples while there is work; idempotent. */
  start(): void {
    if (this.limitBytes > 0) this.sampler.start();
  }

  stop(): void {
    this.sampler.stop();
  }

  private sample(): void {
    const now = performance.now();
    const rss = this.readRss();
    if (rss <= this.limitBytes) return;
    if (now < this.quietUntil && rss <= this.rssAtStop + GROWTH_BYTES) return;
    if (!this.onOver(rss)) return;
    this.quietUntil = now + Math.max(1000, 5 * this.sampleMs);
    this.rssAtStop = rss;
  }
}
