/**
 * Helpers for benchmarks that run Trawl and its baselines as child processes: reading what a
 * child prints until it says where it listens, and its resident memory from /proc.
 */
import { readFileSync } from 'node:fs';

/**
 * Reads a child's stdout line by line until `match` returns a value, then keeps draining it in the
 * background: a closed pipe would kill the child at its next log line.
 */
export async function firstMatch<T>(proc: ReturnType<typeof Bun.spawn>, match: (line: string) => T | undefined): Promise<T> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`process ended before printing what was expected (exit ${await proc.exited})`);
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const found = match(line);
      if (found === undefined) continue;
      void (async () => { while (!(await reader.read()).done); })().catch(() => {});
      return found;
    }
  }
}

/** Resident set size of a process in MB (0 once it has gone). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

