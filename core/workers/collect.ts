/**
 * Full garbage collections now and then on a busy thread. What a page leaves behind is mostly
 * promoted to the old generation (it lived through the young collections during the page), and
 * the runtime's own full collections come late for heaps this small next to the machine's memory:
 * a busy thread's resident memory climbs for minutes. A full collection at most every `everyMs`,
 * right after a unit of work (a small heap: milliseconds), keeps it near what the thread holds.
 * Content workers call it after each page; the pool calls it on the server thread after a reply,
 * where the pages' bytes, outputs and results pass through.
 */
export interface Collector {
  /** Runs a full collection when the last one is `everyMs` old (0: never); says whether it ran. */
  now(everyMs: number): boolean;
  /** The same on the next turn of the event loop, once however often it is asked meanwhile (after a reply has reached its caller). */
  soon(everyMs: number): void;
}

/** A collector of the calling thread. */
export function periodicCollector(): Collector {
  let collectedAt = performance.now();
  let scheduled = false;
  const now = (everyMs: number) => {
    if (everyMs <= 0 || performance.now() - collectedAt < everyMs) return false;
    Bun.gc(true);
    collectedAt = performance.now();
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
