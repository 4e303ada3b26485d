/**
 * Comparing two page versions as a content-worker task (ContentRunner.task): normalising and
 * aligning half a megabyte of text on each side is CPU work on untrusted input, so it runs where
 * pages are parsed, under the same pool, queue and deadline, and never holds the server thread.
 * offThread is that deadline for any such task: a watch check's runs under it too (watch/examine.ts).
 */
import type { ContentRunner } from '../../content-runner.ts';
import { TrawlError } from '../../errors.ts';
import { task, type TaskContext, type TaskRef } from '../../workers/task.ts';
import { compare, type Comparison } from './compare.ts';
import type { NoiseRules } from './normalise.ts';
import { comparableOf, type PageVersion } from './page.ts';

export interface VersionText extends Pick<PageVersion, 'markdown' | 'wordCount'> {
  /** When the version was fetched (ms): its clocks are read against it. */
  fetchedAt?: number;
}

export interface CompareInput {
  previous: VersionText;
  current: VersionText;
  rules?: NoiseRules;
  /**
   * Whether the caller shows the line view (`parts`, `lines`): without it they come back empty.
   * They are the bulk of a large comparison, and copying them back is work on the server thread.
   */
  view: boolean;
}

export function compareVersions(input: CompareInput, ctx?: TaskContext): Comparison {
  const previous = comparableOf(input.previous, input.rules, input.previous.fetchedAt);
  const current = comparableOf(input.current, input.rules, input.current.fetchedAt);
  ctx?.checkMemory();
  const comparison = compare(previous, current);
  return input.view ? comparison : { ...comparison, parts: [], lines: [], addedIdentities: [] };
}

export const COMPARE_TASK = task<typeof compareVersions>(import.meta.url, 'compareVersions');

/**
 * Runs `ref` in a content worker (`here` when there is no pool), with a deadline as a page has
 * (`scrape.timeoutMs`): the work's own budget ends it long before; the deadline is what stops a
 * worker that never returns, and the caller's `signal` (a closed request, a cancelled job) stops it too.
 */
export async function offThread<I, O>(
  content: ContentRunner,
  ref: TaskRef<I, O>,
  input: I,
  here: () => O,
  timeoutMs: number,
  signal?: AbortSignal,
  what = 'Comparing the versions',
): Promise<O> {
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new TrawlError('timeout', `${what} took longer than ${timeoutMs} ms (scrape.timeoutMs)`)),
    timeoutMs,
  );
  try {
    const limits = { signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal, deadline: Date.now() + timeoutMs };
    return await content.task(ref, input, here, limits);
  } finally {
    clearTimeout(timer);
  }
}

/** Compares two versions in a content worker (offThread). */
export function compareOffThread(
  content: ContentRunner,
  input: CompareInput,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Comparison> {
  return offThread(content, COMPARE_TASK, input, () => compareVersions(input), timeoutMs, signal);
}
