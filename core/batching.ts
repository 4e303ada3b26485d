/**
 * Group commit in general: calls of one kind made at about the same time are run as one batch,
 * with at most `concurrency` batches running — the first call starts a batch on the next turn of
 * the event loop, and calls made while every lane is busy gather for the next. Under load a batch
 * holds every request that arrived meanwhile, so a database round trip or a commit is shared by
 * all of them; an idle server runs each call at once. Used where every request of cloud mode writes or reads a row (key
 * lookups, rate-limit counts, charges, usage rows).
 */

interface Waiting<I, O> {
  item: I;
  resolve(value: O): void;
  reject(err: unknown): void;
}

export interface TickBatcher<I, O> {
  /** Resolves with this item's part of its batch's answer. */
  run(item: I): Promise<O>;
  /** Resolves once every item handed in so far has been run. */
  settle(): Promise<void>;
}

export interface TickBatcherOptions {
  /** Items per batch at most. */
  maxBatch?: number;
  /** Batches running at once (a Postgres pool serves several; SQLite has one connection). */
  concurrency?: number;
  /**
   * Waits this long for more items before running a batch that is not full (work behind an answer,
   * where fewer, larger batches matter more than a few milliseconds). Default 0: the next turn.
   */
  gatherMs?: number;
}

/** `execute` answers one output per item, in order; if it throws, every item of the batch fails with it. */
export function createTickBatcher<I, O>(execute: (items: I[]) => Promise<O[]>, options: TickBatcherOptions = {}): TickBatcher<I, O> {
  const maxBatch = options.maxBatch ?? 256;
  const concurrency = options.concurrency ?? 1;
  const gatherMs = options.gatherMs ?? 0;
  const pending: Array<Waiting<I, O>> = [];
  const running = new Set<Promise<void>>();
  let scheduled = false;
  let gathering: ReturnType<typeof setTimeout> | null = null;

  const schedule = () => {
    if (running.size >= concurrency || scheduled) return;
    scheduled = true;
    if (gatherMs > 0 && pending.length < maxBatch) gathering = setTimeout(flush, gatherMs);
    else setImmediate(flush);
  };

  function flush(): void {
    scheduled = false;
    if (gathering) clearTimeout(gathering);
    gathering = null;
    const batch = pending.splice(0, maxBatch);
    if (batch.length === 0) return;
    const done: Promise<void> = execute(batch.map((w) => w.item))
      .then(
        (outputs) => {
          for (const [i, w] of batch.entries()) w.resolve(outputs[i]!);
        },
        (err) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        running.delete(done);
        if (pending.length) schedule();
      });
    running.add(done);
    if (pending.length) schedule();
  }

  return {
    run(item) {
      return new Promise<O>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        schedule();
      });
    },
    async settle() {
      while (running.size || scheduled || pending.length) {
        // Whoever settles wants what was handed in written now, not after the gathering delay.
        if (gathering) flush();
        if (running.size) await Promise.all(running);
        else await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
