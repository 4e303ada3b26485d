/**
 * How an aligned comparison (compare.ts) is shown, always in the page's own text: the line view
 * (same, added, removed, and changed lines with their words — whitespace-separated, so "09:12"
 * stays one word — marked by the `diff` package's Myers diff) for side-by-side and inline display,
 * runs of lines, a unified patch, and a short excerpt such as `09:12 → 09:47` for notifications.
 * Word diffs are bounded in lines, line length and the comparison's one time budget, so a page
 * rewritten from top to bottom costs a bounded amount of work.
 */
import { diffArrays } from 'diff';
import type { NormalLine } from './normalise.ts';

/** One aligned line pair (old only: removed; new only: added). */
export type Op =
  | { type: 'same' | 'changed'; old: NormalLine; new: NormalLine }
  | { type: 'removed'; old: NormalLine; new?: undefined }
  | { type: 'added'; new: NormalLine; old?: undefined };

export interface WordPart {
  type: 'same' | 'added' | 'removed';
  text: string;
}

export interface DiffLine {
  type: 'same' | 'added' | 'removed' | 'changed';
  old?: string;
  new?: string;
  /** Changed lines: the old and new text as runs of same, removed and added words. */
  words?: WordPart[];
}

export interface DiffPart {
  type: 'added' | 'removed' | 'same';
  /** The part's lines, newline-separated. */
  text: string;
}

/** Lines in the line view; a longer page is cut there (the unified patch and the lists still cover it). */
export const MAX_VIEW_LINES = 5000;
/** Changed lines whose words are marked, and the longest line marked. */
const MAX_WORD_LINES = 500;
const MAX_WORD_LINE_CHARS = 2000;
export const EXCERPT_CHARS = 500;
const CONTEXT = 3;

/** `deadline` (performance.now()) is the comparison's: words are marked only while its time lasts. */
export function viewOf(ops: readonly Op[], deadline: number): DiffLine[] {
  let marked = 0;
  return ops.slice(0, MAX_VIEW_LINES).map((op): DiffLine => {
    if (op.type === 'added') return { type: 'added', new: op.new.raw };
    if (op.type === 'removed') return { type: 'removed', old: op.old.raw };
    const line: DiffLine = { type: op.type, old: op.old.raw, new: op.new.raw };
    if (op.type !== 'changed' || marked >= MAX_WORD_LINES || op.old.raw.length + op.new.raw.length > MAX_WORD_LINE_CHARS) return line;
    const left = deadline - performance.now();
    if (left <= 0) return line;
    const words = (text: string) => text.match(/\S+|\s+/g) ?? [];
    const changes = diffArrays(words(op.old.raw), words(op.new.raw), { maxEditLength: 500, timeout: left });
    if (!changes) return line;
    marked++;
    return { ...line, words: changes.map((c) => ({ type: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value.join('') })) };
  });
}

/** The whole text as runs: same lines, then each stretch of changes as its removed and its added lines. */
export function partsOf(ops: readonly Op[]): DiffPart[] {
  const parts: DiffPart[] = [];
  const push = (type: DiffPart['type'], lines: string[]) => {
    if (lines.length === 0) return;
    const last = parts[parts.length - 1];
    if (last?.type === type) last.text += `\n${lines.join('\n')}`;
    else parts.push({ type, text: lines.join('\n') });
  };
  for (let i = 0; i < ops.length; ) {
    if (ops[i]!.type === 'same') {
      push('same', [ops[i++]!.new!.raw]);
      continue;
    }
    const stretch: Op[] = [];
    while (i < ops.length && ops[i]!.type !== 'same') stretch.push(ops[i++]!);
    push(
      'removed',
      stretch.flatMap((op) => (op.old ? [op.old.raw] : [])),
    );
    push(
      'added',
      stretch.flatMap((op) => (op.new ? [op.new.raw] : [])),
    );
  }
  return parts;
}

/** A unified patch of the page's text with three lines of context. */
export function unifiedOf(ops: readonly Op[]): string {
  // Each op's position in the old and new texts (1-based), for the hunk headers.
  const at: Array<{ old: number; new: number }> = [];
  let [o, n] = [1, 1];
  for (const op of ops) {
    at.push({ old: o, new: n });
    if (op.old) o++;
    if (op.new) n++;
  }
  const out = ['--- previous', '+++ current'];
  for (let i = 0; i < ops.length; ) {
    if (ops[i]!.type === 'same') {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    // The hunk runs on over changes fewer than two contexts apart; `last` is after its last change.
    let last = i;
    for (let j = i; j < ops.length && j - last <= 2 * CONTEXT; j++) if (ops[j]!.type !== 'same') last = j + 1;
    const end = Math.min(ops.length, last + CONTEXT);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.old).length;
    const newCount = hunk.filter((op) => op.new).length;
    out.push(`@@ -${at[start]!.old},${oldCount} +${at[start]!.new},${newCount} @@`);
    for (const op of hunk) {
      if (op.type === 'same') out.push(` ${op.new.raw}`);
      else {
        if (op.old) out.push(`-${op.old.raw}`);
        if (op.new) out.push(`+${op.new.raw}`);
      }
    }
    i = end;
  }
  return `${out.join('\n')}\n`;
}

/** The changed words of a line: `old → new`, `+new` or `−old` per stretch of changes. */
function wordChanges(words: readonly WordPart[]): string {
  const pieces: string[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    const [r, a] = [removed.trim(), added.trim()];
    if (r && a) pieces.push(`${r} → ${a}`);
    else if (a) pieces.push(`+${a}`);
    else if (r) pieces.push(`−${r}`);
    removed = added = '';
  };
  for (const word of words) {
    if (word.type === 'removed') removed += word.text;
    else if (word.type === 'added') added += word.text;
    else if (word.text.trim()) flush();
  }
  flush();
  return pieces.join(', ');
}

/** A short word-level diff of the changes, at most EXCERPT_CHARS. */
export function excerptOf(lines: readonly DiffLine[]): string {
  const pieces: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (line.type === 'same') continue;
    const piece =
      line.type === 'added'
        ? `+${line.new}`
        : line.type === 'removed'
          ? `−${line.old}`
          : line.words
            ? wordChanges(line.words)
            : `${line.old} → ${line.new}`;
    if (!piece) continue;
    pieces.push(piece);
    length += piece.length + 2;
    if (length >= EXCERPT_CHARS) break;
  }
  const text = pieces.join('; ');
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1).trimEnd()}…` : text;
}
