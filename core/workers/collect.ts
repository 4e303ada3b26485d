/**
 * Full garbage collections now and then on a busy thread. What a page leaves behind is mostly
 * promoted to the old generation (it lived through the young collections during the page), and
 * the runtime's own full collections come late for heaps this small next to the machine's memory:
 * a busy thread's resident memory climbs for minutes. A full collection at most every `everyMs`,
 * right after a unit of work, keeps it near what the thread holds. Content workers call it after
 * each page; the pool calls it on the server thread after a reply, where the pages' bytes, outputs
 * and results pass through.
 *
 * A collection stops the thread for as long as it takes (~30–60 ms for a server thread's
 * 30–40 MB on 2 busy cores), so it is bounded twice: the thread's heap must be under `maxBytes`
 * (a larger heap is one the runtime's own collections already keep in proportion, and collecting
 * it would stall the server's requests and timers for much longer), and collections are spaced
 * at least ten times their last duration apart (at most a tenth of the thread's time).
 */
import { heapSize } from 'bun:jsc';

export interface Collector {
  /** Collects when the last collection is old enough (`everyMs`; 0: never); says whether it did. */
  now(everyMs: number): boolean;
  /** The same on the next turn of the event loop, once however often it is asked meanwhile (after a reply has reached its caller). */
  soon(everyMs: number): void;
}

/** Collections never take more than this share of the thread's time. */
const MAX_SHARE = 0.1;

/** A collector of the calling thread. */
export function periodicCollector({ maxBytes }: { maxBytes: number }): Collector {
  let collectedAt = performance.now();
  let spacingMs = 0;
  let scheduled = false;
  const now = (everyMs: number) => {
    const started = performance.now();
    if (everyMs <= 0 || started - collectedAt < Math.max(everyMs, spacingMs)) return false;
    if (maxBytes !== Infinity && heapSize() >= maxBytes) return false;
    Bun.gc(true);
    collectedAt = performance.now();
    spacingMs = (collectedAt - started) / MAX_SHARE;
    return true;
  };
  return {
    now,
    soon(everyMs) {
      if (scheduled || everyMs <= 0) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        now(everyMs);
      });
    },
  };
}
