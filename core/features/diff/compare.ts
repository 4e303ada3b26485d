/**
 * Comparing two versions of a page's comparable content (normalise.ts): whether it changed, a
 * line diff (the `diff` package: Myers' algorithm, bounded by an edit length and a time limit so
 * two huge unrelated pages cost a bounded amount of work), a unified patch, links added and
 * removed, the word-count delta, and a short plain sentence saying what changed.
 */
import { createTwoFilesPatch, diffLines } from 'diff';
import { sha256Hex } from '../../storage/values.ts';

/** One version of a page, as compared. */
export interface Comparable {
  /** Normalised text (normaliseContent). */
  text: string;
  /** Normalised link targets (normaliseLinks). */
  links: readonly string[];
  wordCount: number;
}

export interface DiffPart {
  type: 'added' | 'removed' | 'same';
  /** The part's lines, newline-separated. */
  text: string;
}

export interface Comparison {
  changed: boolean;
  /** Unified diff of the normalised texts (`--- previous` / `+++ current`); empty when unchanged. */
  unified: string;
  /** Lines only in the current version / only in the previous one (at most MAX_LISTED each). */
  added: string[];
  removed: string[];
  /** The whole text as runs of same, removed and added lines, for side-by-side or inline display. */
  parts: DiffPart[];
  summary: string;
  wordCountDelta: number;
  linksAdded: number;
  linksRemoved: number;
}

export interface DiffLimits {
  /** Edits beyond which the texts count as wholly replaced instead of being aligned. */
  maxEditLength: number;
  timeoutMs: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxEditLength: 10_000, timeoutMs: 2000 };
const MAX_LISTED = 500;
const EXCERPT = 120;

export function contentHash(text: string): string {
  return sha256Hex(text);
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
const linesOf = (text: string) => text.split('\n').filter((line) => line !== '');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function lineParts(previous: string, current: string, limits: DiffLimits): DiffPart[] {
  const changes = diffLines(withNewline(previous), withNewline(current), { maxEditLength: limits.maxEditLength, timeout: limits.timeoutMs });
  // Too different to align within the limits: everything old went, everything new came.
  if (!changes) return [{ type: 'removed', text: previous }, { type: 'added', text: current }].filter((p) => p.text !== '') as DiffPart[];
  return changes.map((c) => ({ type: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value.replace(/\n$/, '') }));
}

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

export function compare(previous: Comparable, current: Comparable, limits: DiffLimits = DEFAULT_DIFF_LIMITS): Comparison {
  const before = new Set(previous.links);
  const after = new Set(current.links);
  const linksAdded = [...after].filter((l) => !before.has(l)).length;
  const linksRemoved = [...before].filter((l) => !after.has(l)).length;
  const wordCountDelta = current.wordCount - previous.wordCount;
  if (previous.text === current.text && linksAdded === 0 && linksRemoved === 0) {
    return { changed: false, unified: '', added: [], removed: [], parts: previous.text ? [{ type: 'same', text: previous.text }] : [], summary: 'No change.', wordCountDelta, linksAdded: 0, linksRemoved: 0 };
  }
  const parts = lineParts(previous.text, current.text, limits);
  const added = parts.filter((p) => p.type === 'added').flatMap((p) => linesOf(p.text));
  const removed = parts.filter((p) => p.type === 'removed').flatMap((p) => linesOf(p.text));
  const unified = createTwoFilesPatch('previous', 'current', withNewline(previous.text), withNewline(current.text), undefined, undefined,
    { context: 3, maxEditLength: limits.maxEditLength, timeout: limits.timeoutMs })
    ?? [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join('\n');
  return {
    changed: true,
    unified,
    added: added.slice(0, MAX_LISTED),
    removed: removed.slice(0, MAX_LISTED),
    parts,
    summary: summarise(added, removed, linksAdded, linksRemoved),
    wordCountDelta,
    linksAdded,
    linksRemoved,
  };
}
