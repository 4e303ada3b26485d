/**
 * Memory of the benchmark process and of the Chromium processes it started, read from /proc:
 * the browser and every descendant (renderers, GPU, network service). PSS (proportional set size)
 * is used where the kernel offers it, so pages Chromium processes share are not counted twice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { descendants } from '../core/browser/memory.ts';

/** Proportional set size of one process in bytes (resident size where smaps_rollup is missing). */
export function memoryOf(pid: number): number {
  try {
    const rollup = `/proc/${pid}/smaps_rollup`;
    const text = existsSync(rollup) ? readFileSync(rollup, 'utf8') : readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^(?:Pss|VmRSS):\s+(\d+) kB/m.exec(text)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0; // the process ended while we looked
  }
}

export interface MemorySample {
  /** This process's resident set. */
  processRss: number;
  /** All Chromium processes started by this process. */
  browserPss: number;
}

export function sampleMemory(): MemorySample {
  Bun.gc(true);
  const browserPss = descendants(process.pid).reduce((sum, pid) => sum + memoryOf(pid), 0);
  return { processRss: process.memoryUsage().rss, browserPss };
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
