/**
 * Limited sections: a part of a task, such as a third-party parser fed hostile bytes, that gets its
 * own shorter time limit and its own error when it passes it or crashes. In a pool worker the
 * section is announced to the pool before it starts, so the pool can act even while the section
 * spins without yielding: at the limit it terminates and replaces the worker and fails the task
 * with the section's `timeoutError`; if the worker crashes or exits during the section, the task
 * fails with `crashError`, whose message has `{reason}` replaced by what happened ("crashed
 * (<message>)" or "stopped unexpectedly"). On the calling thread (pool size 0, unit tests)
 * nothing can stop synchronous code: the limit is checked when the work yields and when it ends.
 */

export interface SectionLimits {
  timeoutMs: number;
  timeoutError: Error;
  /** `{reason}` in its message becomes "crashed (<message>)" or "stopped unexpectedly". */
  crashError: Error;
}

/** The pool worker's side (worker.ts): tells the pool where the running task is. */
export interface SectionHost {
  begin(limits: SectionLimits): void;
  end(): void;
}

let host: SectionHost | undefined;
let open = false;

/** Called once by the worker entry; without it sections run on their own (on the calling thread). */
export function setSectionHost(worker: SectionHost): void {
  host = worker;
}

/** Runs `work` under `limits`. A worker runs one task, so one section, at a time. */
export async function withinLimit<T>(limits: SectionLimits, work: () => Promise<T>): Promise<T> {
  if (!host) return raceLimit(limits, work);
  const worker = enter(host, limits);
  try {
    return await work();
  } finally {
    leave(worker);
  }
}

/** Announces a section to the pool (one at a time: a worker runs one task). */
function enter(worker: SectionHost, limits: SectionLimits): SectionHost {
  if (open) throw new Error('limited sections do not nest');
  open = true;
  worker.begin(limits);
  return worker;
}

function leave(worker: SectionHost): void {
  worker.end();
  open = false;
}

/**
 * `withinLimit` for synchronous work (selector matching): announced to the pool like any section; on
 * the calling thread the limit is checked when the work ends.
 */
export function withinLimitSync<T>(limits: SectionLimits, work: () => T): T {
  if (host) {
    const worker = enter(host, limits);
    try {
      return work();
    } finally {
      leave(worker);
    }
  }
  const started = performance.now();
  const result = work();
  if (performance.now() - started > limits.timeoutMs) throw limits.timeoutError;
  return result;
}

async function raceLimit<T>(limits: SectionLimits, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(limits.timeoutError), limits.timeoutMs);
  });
  try {
    const result = await Promise.race([work(), late]);
    if (performance.now() - started > limits.timeoutMs) throw limits.timeoutError;
    return result;
  } finally {
    clearTimeout(timer);
  }
}
