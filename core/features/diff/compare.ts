/**
 * Comparing two versions of a page (normalise.ts): lines are aligned once by their keys (lines.ts:
 * unique lines as anchors, Myers between them), and that alignment is the only line diff: the
 * patch, the line view and the lists are all read from it. One time budget covers the alignment and
 * the word marks together, so a comparison at the input bound stays well under a second. A line
 * whose key matches but whose times differ is a change unless both times are clocks of their fetch
 * (clock.ts), and what is shown — added and removed lines, the unified patch, the line-by-line view
 * with changed words marked (render.ts), the summary — is the page's own text, never the masked
 * key.
 */
import { sha256Hex } from '../../storage/values.ts';
import { clockZones, sameTime } from './clock.ts';
import { matchLines } from './lines.ts';
import { TIME_MARK, type NormalLine } from './normalise.ts';
import { excerptOf, partsOf, unifiedOf, viewOf, type DiffLine, type DiffPart, type Op } from './render.ts';

export type { DiffLine, DiffPart, WordPart } from './render.ts';

/** One version of a page, as compared. */
export interface Comparable {
  lines: readonly NormalLine[];
  /** Normalised link targets (normaliseLinks). */
  links: readonly string[];
  wordCount: number;
  /** When the version was fetched (ms since the epoch): clocks are read against it. */
  fetchedAt?: number;
}

export interface Comparison {
  changed: boolean;
  /** Unified diff of the page's text (`--- previous` / `+++ current`, 3 lines of context); empty when unchanged. */
  unified: string;
  /** Lines only in the current version / only in the previous one (at most MAX_LISTED each). */
  added: string[];
  removed: string[];
  /** Identities (masked noise, times kept) of every line that is new or rewritten: only_new_lines reads them. */
  addedIdentities: string[];
  /** The whole text as runs of same, removed and added lines. */
  parts: DiffPart[];
  /** Line by line, changed lines with their words marked: side-by-side and inline views. */
  lines: DiffLine[];
  /** A short word-level diff (`09:12 → 09:47`), at most EXCERPT_CHARS; empty when unchanged. */
  excerpt: string;
  summary: string;
  wordCountDelta: number;
  linksAdded: number;
  linksRemoved: number;
}

export interface DiffLimits {
  /**
   * The time for aligning lines and marking words, together. Stretches not aligned by then count
   * as replaced and later changed lines go unmarked: the answer is coarser, never late.
   */
  timeoutMs: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { timeoutMs: 400 };
const MAX_LISTED = 500;
const EXCERPT = 120;

/** A line with its times read back in: what "seen before" means for only_new_lines. */
export function lineIdentity(line: NormalLine): string {
  if (line.times.length === 0) return line.key;
  let i = 0;
  return line.key.replaceAll(TIME_MARK, () => line.times[i++]?.raw ?? '');
}

/** sha256 of the comparable text: keys, with each time that is a clock of the fetch masked. */
export function contentHash(version: Pick<Comparable, 'lines' | 'fetchedAt'>): string {
  const text = version.lines
    .map((line) => {
      let i = 0;
      return line.key.replaceAll(TIME_MARK, () => {
        const time = line.times[i++]!;
        return version.fetchedAt !== undefined && clockZones(time, version.fetchedAt).length ? '<clock>' : time.raw;
      });
    })
    .join('\n');
  return sha256Hex(text);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function excerpt(line: string): string {
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1).trimEnd()}…` : line;
}

/** "2 lines added and 1 removed; 1 link added. Now reads: “…”" */
export function summarise(added: readonly string[], removed: readonly string[], linksAdded: number, linksRemoved: number): string {
  const lines: string[] = [];
  if (added.length && removed.length) lines.push(`${plural(added.length, 'line')} added and ${removed.length} removed`);
  else if (added.length) lines.push(`${plural(added.length, 'line')} added`);
  else if (removed.length) lines.push(`${plural(removed.length, 'line')} removed`);
  const links: string[] = [];
  if (linksAdded) links.push(`${plural(linksAdded, 'link')} added`);
  if (linksRemoved) links.push(`${plural(linksRemoved, 'link')} removed`);
  const parts = [...lines, ...(links.length ? [links.join(' and ')] : [])];
  if (parts.length === 0) return 'No change.';
  let sentence = parts.join('; ');
  sentence = sentence[0]!.toUpperCase() + sentence.slice(1);
  if (added[0]) return `${sentence}. Now reads: “${excerpt(added[0])}”`;
  if (removed[0]) return `${sentence}. No longer reads: “${excerpt(removed[0])}”`;
  return `${sentence}.`;
}

/** Lines with equal keys: the same unless a time differs and is not a clock of both fetches. */
function pair(a: NormalLine, b: NormalLine, previous: Comparable, current: Comparable): Op {
  const same =
    a.times.length === b.times.length && a.times.every((t, i) => sameTime(t, previous.fetchedAt, b.times[i]!, current.fetchedAt));
  return { type: same ? 'same' : 'changed', old: a, new: b };
}

/** The two versions line by line; removed and added runs side by side become changed lines. */
function align(previous: Comparable, current: Comparable, deadline: number): Op[] {
  const [before, after] = [previous.lines, current.lines];
  const matches = matchLines(
    before.map((l) => l.key),
    after.map((l) => l.key),
    deadline,
  );
  const ops: Op[] = [];
  let [i, j] = [0, 0];
  for (const [mi, mj] of [...matches, [before.length, after.length] as const]) {
    const removed = before.slice(i, mi);
    const added = after.slice(j, mj);
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) ops.push({ type: 'changed', old: removed[k]!, new: added[k]! });
    for (const line of removed.slice(paired)) ops.push({ type: 'removed', old: line });
    for (const line of added.slice(paired)) ops.push({ type: 'added', new: line });
    if (mi < before.length) ops.push(pair(before[mi]!, after[mj]!, previous, current));
    [i, j] = [mi + 1, mj + 1];
  }
  return ops;
}

export function compare(previous: Comparable, current: Comparable, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Comparison {
  const before = new Set(previous.links);
  const after = new Set(current.links);
  const linksAdded = [...after].filter((l) => !before.has(l)).length;
  const linksRemoved = [...before].filter((l) => !after.has(l)).length;
  const wordCountDelta = current.wordCount - previous.wordCount;
  const deadline = performance.now() + limits.timeoutMs;
  const ops = align(previous, current, deadline);
  const changedLines = ops.filter((op) => op.type !== 'same');
  const changed = changedLines.length > 0 || linksAdded > 0 || linksRemoved > 0;
  const added = changedLines.flatMap((op) => (op.new ? [op.new.raw] : []));
  const removed = changedLines.flatMap((op) => (op.old ? [op.old.raw] : []));
  const lines = viewOf(ops, deadline);
  return {
    changed,
    unified: changedLines.length ? unifiedOf(ops) : '',
    added: added.slice(0, MAX_LISTED),
    removed: removed.slice(0, MAX_LISTED),
    addedIdentities: changedLines.flatMap((op) => (op.new ? [lineIdentity(op.new)] : [])),
    parts: partsOf(ops),
    lines,
    excerpt: excerptOf(lines),
    summary: changed ? summarise(added, removed, linksAdded, linksRemoved) : 'No change.',
    wordCountDelta,
    linksAdded,
    linksRemoved,
  };
}
