/**
 * A check's CPU work as a content-worker task (ContentRunner.task): the new version made
 * comparable and hashed, compared with the previous snapshot, its numbers and stock read from the
 * raw HTML (observe.ts), the decision (decide.ts) and the seen-lines memory. Half a megabyte of
 * text on each side and up to 3 MB of HTML are untrusted input, so a scheduled check runs this
 * where pages are parsed, under the same pool, queue and deadline as POST /v1/diff's comparison,
 * and the server thread only stores what comes back (a few small fields).
 */
import { task, type TaskContext } from '../../workers/task.ts';
import { compare, contentHash, lineIdentity, type Comparison } from '../diff/compare.ts';
import { comparableOf, type PageVersion } from '../diff/page.ts';
import { decide, lineHash, rememberLines, type Decision } from './decide.ts';
import type { Observed, WatchFilters } from './filters.ts';
import { observe } from './observe.ts';

export interface ExamineInput {
  filters: WatchFilters;
  /** The version just scraped, and when (ms). */
  version: Pick<PageVersion, 'markdown' | 'wordCount' | 'html'>;
  checkedAt: number;
  /** The newest snapshot: its text, words, check time (ms) and what it observed; null on the first check. */
  previous: { markdown: string; wordCount: number; checkedAt: number; observed: Observed | null } | null;
  /** only_new_lines: the watch's seen-line hashes, and how many are kept. */
  seen: string[];
  seenLinesKept: number;
}

export interface Examined {
  contentHash: string;
  /** What the snapshot keeps of the comparison; null on the first check. */
  comparison: Pick<Comparison, 'changed' | 'summary' | 'wordCountDelta' | 'linksAdded' | 'linksRemoved'> | null;
  observed: Observed | null;
  decision: Decision;
  /** The seen-lines memory to store, when it changes. */
  remembered?: string[];
}

export function examine(input: ExamineInput, ctx?: TaskContext): Examined {
  const { filters, version, previous } = input;
  const rules = { ignoreText: filters.ignoreText, patterns: filters.ignorePatterns };
  const current = comparableOf(version, rules, input.checkedAt);
  const before = previous ? comparableOf(previous, rules, previous.checkedAt) : null;
  ctx?.checkMemory();
  const comparison = before ? compare(before, current) : null;
  const observed =
    filters.conditions.length > 0 || filters.restock ? observe(version.html, version.markdown, filters.conditions, filters.restock) : null;
  // The previous snapshot's lines count as seen too (only_new_lines switched on after it).
  const seen = filters.onlyNewLines
    ? new Set([...input.seen, ...(before?.lines ?? []).map((l) => lineHash(lineIdentity(l)))])
    : new Set<string>();
  const decision = decide({
    filters,
    comparison,
    currentLines: current.lines.map((l) => l.raw),
    previousLines: before?.lines.map((l) => l.raw) ?? [],
    observed,
    previousObserved: previous?.observed ?? null,
    seen,
  });
  const remembered =
    filters.onlyNewLines && comparison?.changed !== false
      ? rememberLines(input.seen, [...(before?.lines ?? []), ...current.lines].map(lineIdentity), input.seenLinesKept)
      : undefined;
  return {
    contentHash: contentHash(current),
    comparison: comparison && {
      changed: comparison.changed,
      summary: comparison.summary,
      wordCountDelta: comparison.wordCountDelta,
      linksAdded: comparison.linksAdded,
      linksRemoved: comparison.linksRemoved,
    },
    observed,
    decision,
    ...(remembered ? { remembered } : {}),
  };
}

export const EXAMINE_TASK = task<typeof examine>(import.meta.url, 'examine');
