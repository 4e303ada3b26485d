/**
 * Helpers for benchmarks that run Trawl and its baselines as child processes: the environment
 * given on the command line, reading what a child prints until it says where it listens, and its
 * resident memory from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** `KEY=VALUE` pairs from the command line as an environment; `flag` names the option in the error for a pair without `=`. */
export function envFromPairs(pairs: readonly string[], flag: string): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`${flag} "${pair}": expected KEY=VALUE`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

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
      void (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
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

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux that Bun runs on). */
const TICKS_PER_SECOND = 100;

/** utime + stime of a /proc `stat` line, in ms (the command name may hold spaces, so fields count from its ')'). */
function statCpuMs(path: string): number {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU time a process has used, in ms, split by thread: `main` (the JavaScript thread the process
 * started with), `workers` (Bun Worker threads), `gc` and `jit` (JavaScriptCore's helpers), `other`
 * (I/O pools and the rest). `total` is the whole process, threads that have ended included, so it
 * can be more than the sum of the parts.
 */
export function cpuMs(pid: number): Record<'total' | 'main' | 'workers' | 'gc' | 'jit' | 'other', number> {
  const split = { total: statCpuMs(`/proc/${pid}/stat`), main: 0, workers: 0, gc: 0, jit: 0, other: 0 };
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {}
  for (const tid of tasks) {
    let name = '';
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const ms = statCpuMs(`/proc/${pid}/task/${tid}/stat`);
    const group =
      tid === String(pid)
        ? 'main'
        : name === 'Worker'
          ? 'workers'
          : /HeapHelper|Collector|Heap/.test(name)
            ? 'gc'
            : /JIT|WarmUp/.test(name)
              ? 'jit'
              : 'other';
    split[group] += ms;
  }
  return split;
}
