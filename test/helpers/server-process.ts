/**
 * A real Trawl server in its own process (`bun server/main.ts --port 0`), for tests and benchmarks
 * that judge what only a separate process shows: whether the API thread still answers `/health`
 * while a hostile page is being processed, and how much memory the whole process tree (the server
 * plus any children it starts, such as a browser) holds. Storage is a throwaway data directory.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstMatch, rssMb } from '../../bench/processes.ts';

const REPO_ROOT = join(import.meta.dir, '../..');

export interface ServerProcessOptions {
  /** Extra environment (config keys as TRAWL_* variables); layered over the test defaults. */
  env?: Record<string, string>;
  /** The checkout to run (another worktree, for before/after benchmarks); default this one. */
  root?: string;
  /** How long the server may take to print where it listens. Default 30 s. */
  startTimeoutMs?: number;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** What the server wrote to stderr so far (boot failures, crashes). */
  stderr(): string;
  post(path: string, body: unknown, init?: { timeoutMs?: number }): Promise<Response>;
  /** Resident memory of the server and every descendant process, in MB. */
  treeRssMb(): number;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; removes the data directory. */
  stop(graceMs?: number): Promise<void>;
}

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const root = options.root ?? REPO_ROOT;
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-process-'));
  const proc = Bun.spawn(['bun', join(root, 'server/main.ts'), '--port', '0'], {
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TRAWL_DATA_DIR: dataDir,
      TRAWL_LOG_LEVEL: 'info',
      TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true',
      ...options.env,
    },
  });
  let stderr = '';
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) stderr += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  const stop = async (graceMs = 5000) => {
    proc.kill('SIGTERM');
    const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
    if (!exited) {
      proc.kill('SIGKILL');
      await proc.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  let url: string;
  try {
    url = await Promise.race([
      firstMatch(proc, (line) => /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1]),
      Bun.sleep(startTimeoutMs).then(() => {
        throw new Error(`the server did not listen within ${startTimeoutMs} ms`);
      }),
    ]);
  } catch (err) {
    await stop(1000);
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  return {
    url,
    pid: proc.pid,
    stderr: () => stderr,
    post: (path, body, init = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: init.timeoutMs ? AbortSignal.timeout(init.timeoutMs) : undefined,
      }),
    treeRssMb: () => treeRssMb(proc.pid),
    stop,
  };
}

/** A process and all its descendants, from /proc/<pid>/task/<tid>/children (Linux). */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${tree[i]}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(/\s+/).map(Number));
      } catch {}
    }
  }
  return tree;
}

export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + rssMb(member), 0);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux build Trawl runs on). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time the process tree has used so far, every thread (utime + stime of /proc/<pid>/stat). The
 * difference around some work is what it cost, however long a loaded machine made it take.
 */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    try {
      // Fields after the command name (which may hold spaces), from the third: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${member}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {} // gone meanwhile
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export interface RssSample {
  startMb: number;
  peakMb: number;
  /** Peak minus start: what the work in between cost. */
  growthMb: number;
}

/** Samples the tree's RSS every `intervalMs` until stopped. */
export function sampleTreeRss(pid: number, intervalMs = 100): { stop(): RssSample } {
  const startMb = treeRssMb(pid);
  let peakMb = startMb;
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, treeRssMb(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peakMb = Math.max(peakMb, treeRssMb(pid));
      return { startMb: Math.round(startMb), peakMb: Math.round(peakMb), growthMb: Math.round(peakMb - startMb) };
    },
  };
}

export interface HealthPolls {
  polls: number;
  /** Polls answered 200 within `answerWithinMs`. */
  answered: number;
  fraction: number;
  slowestMs: number;
}

/**
 * Sends `GET /health` every `intervalMs` (each on its own, so a stalled server fails one poll per
 * interval instead of holding up the poller) until stopped; a poll counts when it answers 200
 * within `answerWithinMs`. `stop()` waits for the polls still in flight.
 */
export function pollHealth(url: string, options: { intervalMs?: number; answerWithinMs?: number } = {}): { stop(): Promise<HealthPolls> } {
  const intervalMs = options.intervalMs ?? 250;
  const answerWithinMs = options.answerWithinMs ?? 1000;
  const polls: Array<Promise<number | null>> = [];
  const poll = async (): Promise<number | null> => {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(answerWithinMs) });
      await response.arrayBuffer();
      return response.status === 200 ? performance.now() - started : null;
    } catch {
      return null;
    }
  };
  polls.push(poll());
  const timer = setInterval(() => polls.push(poll()), intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      const times = await Promise.all(polls);
      const answered = times.filter((t): t is number => t !== null && t <= answerWithinMs);
      return {
        polls: times.length,
        answered: answered.length,
        fraction: times.length ? answered.length / times.length : 0,
        slowestMs: Math.round(Math.max(0, ...answered)),
      };
    },
  };
}
