/**
 * Memory of the Chromium process tree, read from /proc, and the watch that keeps it bounded while
 * pages render. Chromium's memory is not Trawl's own (the content workers' watchdog sees only this
 * process), so the browser pool samples the browser and every descendant — renderers, GPU, the
 * network service — and stops the renderer to blame: one over the per-renderer ceiling
 * (`browser.maxRendererMb`), or the largest renderer when this process plus the browser pass the
 * server's budget (`workers.maxRssMb`). A renderer killed this way crashes its page's tab, which the
 * pool turns into a 422 naming the setting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Sampler } from '../sampler.ts';

const PAGE_BYTES = 4096;
const MB = 2 ** 20;

function parentOf(pid: number): number | null {
  try {
    // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Every live process below `root` (children, grandchildren …), without `root` itself. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return []; // no /proc (not Linux): nothing to watch
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Resident set of one process in bytes (0 once it has ended). Cheap: one small read of statm. */
export function rssOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

function isRenderer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
  } catch {
    return false;
  }
}

export interface TreeSample {
  /** Resident sets of the browser and all its descendants, summed (shared pages count in each). */
  totalBytes: number;
  renderers: Array<{ pid: number; rssBytes: number }>;
}

/** The browsers (a retiring one may still be finishing jobs) and all their descendants. */
export function sampleTree(browserPids: readonly number[]): TreeSample {
  let totalBytes = 0;
  const renderers: TreeSample['renderers'] = [];
  for (const pid of [...browserPids, ...browserPids.flatMap(descendants)]) {
    const rssBytes = rssOf(pid);
    totalBytes += rssBytes;
    if (isRenderer(pid)) renderers.push({ pid, rssBytes });
  }
  return { totalBytes, renderers };
}

export interface MemoryLimits {
  /** One renderer's ceiling (browser.maxRendererMb); 0 = none. */
  maxRendererMb: number;
  /** This process plus the browser tree (workers.maxRssMb); 0 = none. */
  maxTotalMb: number;
}

/** Which renderer to stop, and the 422's message; null when every limit holds. */
export function overLimit(sample: TreeSample, ownRssBytes: number, limits: MemoryLimits): { pid: number; message: string } | null {
  const largest = [...sample.renderers].sort((a, b) => b.rssBytes - a.rssBytes)[0];
  if (!largest) return null;
  const mb = (bytes: number) => Math.round(bytes / MB);
  if (limits.maxRendererMb > 0 && largest.rssBytes > limits.maxRendererMb * MB) {
    return {
      pid: largest.pid,
      message: `The rendered page needs more memory than the server allows: its browser tab passed browser.maxRendererMb (${limits.maxRendererMb} MB; it used ${mb(largest.rssBytes)} MB)`,
    };
  }
  const total = ownRssBytes + sample.totalBytes;
  if (limits.maxTotalMb > 0 && total > limits.maxTotalMb * MB) {
    return {
      pid: largest.pid,
      message: `The rendered page needs more memory than the server allows: the server and its browser passed workers.maxRssMb (${limits.maxTotalMb} MB; ${mb(total)} MB) and this page's tab was the largest`,
    };
  }
  return null;
}

/**
 * Samples the tree every `sampleMs` while pages render and kills the renderer `overLimit` names;
 * `onKill` hears which and why (the pool maps the tab's crash to that message).
 */
export class BrowserMemoryWatch {
  private readonly sampler: Sampler;

  constructor(
    private readonly browserPids: () => number[],
    private readonly limits: MemoryLimits,
    sampleMs: number,
    private readonly onKill: (pid: number, message: string) => void,
  ) {
    this.sampler = new Sampler(sampleMs, () => this.sample());
  }

  start(): void {
    if (this.limits.maxRendererMb > 0 || this.limits.maxTotalMb > 0) this.sampler.start();
  }

  stop(): void {
    this.sampler.stop();
  }

  private sample(): void {
    const pids = this.browserPids();
    if (!pids.length) return;
    const over = overLimit(sampleTree(pids), process.memoryUsage.rss(), this.limits);
    if (!over) return;
    try {
      process.kill(over.pid, 'SIGKILL');
    } catch {
      return; // it ended on its own meanwhile
    }
    this.onKill(over.pid, over.message);
  }
}
