/**
 * How much the machine's other work stretches wall-clock time right now, for tests whose time
 * limits are about behaviour ("answered at its deadline, plus a little", "health keeps answering")
 * rather than speed. On a shared 2-core machine at load 15 a request that takes 50 ms idle can take
 * a second; a fixed allowance then fails a correct server. Scaling the allowance by this factor
 * keeps such a test strict on a quiet machine and fair on a busy one, and it still fails when the
 * behaviour is wrong (a deadline never enforced, a thread blocked for the whole task).
 *
 * The factor: a fixed piece of CPU work timed on the wall clock against the CPU time it got, the
 * median of a few samples, between 1 and `MAX_FACTOR`. Call it right before the measured work, in a
 * process that is otherwise idle at that moment (its own threads would count as CPU it got).
 */

/** Beyond this the machine is too loaded for any timing to mean much; allowances stop growing. */
const MAX_FACTOR = 10;

export function loadFactor(samples = 5, sampleMs = 40): number {
  const ratios: number[] = [];
  for (let i = 0; i < samples; i++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    while (performance.now() - started < sampleMs);
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    ratios.push(wallMs / Math.max((cpu.user + cpu.system) / 1000, 1));
  }
  ratios.sort((a, b) => a - b);
  return Math.min(MAX_FACTOR, Math.max(1, ratios[Math.floor(ratios.length / 2)]!));
}

/** `baseMs` as the machine's current load stretches it (see `loadFactor`). */
export function stretched(baseMs: number, factor = loadFactor()): number {
  return Math.round(baseMs * factor);
}

/**
 * Runs `work` and reports the CPU time this process (every thread: an in-process server's workers
 * too) spent meanwhile. A bound on it holds on a loaded machine, where the wall clock stretches.
 */
export async function withCpu<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Pairs of start times (ms, sorted) that break a politeness delay: any two starts k apart must be
 * at least k·`delayMs` apart, less `slackMs` — the time between a start being granted and the
 * request arriving, which grows with the machine's load. Empty when the spacing holds.
 */
export function spacingShortfalls(starts: readonly number[], delayMs: number, slackMs: number): string[] {
  const shortfalls: string[] = [];
  for (let k = 1; k < starts.length; k++) {
    for (let i = k; i < starts.length; i++) {
      const gap = starts[i]! - starts[i - k]!;
      if (gap < k * delayMs - slackMs)
        shortfalls.push(`starts ${i - k} and ${i}: ${Math.round(gap)} ms apart, under ${k * delayMs - slackMs}`);
    }
  }
  return shortfalls;
}
