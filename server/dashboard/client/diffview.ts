/**
 * Draws a snapshot diff (the API's `lines`, with word-level parts on changed lines) side by side or
 * inline: removed words struck in red, added words in green, long unchanged runs folded.
 */
import type { DiffLine, WordPart } from './api.ts';
import { el } from './dom.ts';

const CONTEXT = 3;

/** Unchanged runs longer than twice the context fold into one "… n unchanged lines …" row. */
function folded(lines: DiffLine[]): Array<DiffLine | number> {
  const out: Array<DiffLine | number> = [];
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.type !== 'same') {
      out.push(lines[i++]!);
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end]!.type === 'same') end++;
    const run = lines.slice(i, end);
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = end === lines.length ? 0 : CONTEXT;
    if (run.length > keepHead + keepTail + 1)
      out.push(...run.slice(0, keepHead), run.length - keepHead - keepTail, ...run.slice(run.length - keepTail));
    else out.push(...run);
    i = end;
  }
  return out;
}

const textOf = (line: DiffLine) => line.new ?? line.old ?? '';

/** A changed line's words: `side` keeps the words of that side (both for inline). */
function words(parts: WordPart[], side: 'old' | 'new' | 'both'): HTMLElement {
  const box = el('div', null, 'line chg');
  for (const part of parts) {
    if (part.type === 'same') box.append(part.text);
    else if (part.type === 'removed' && side !== 'new') box.append(el('del', part.text));
    else if (part.type === 'added' && side !== 'old') box.append(el('ins', part.text));
  }
  return box;
}

const line = (text: string, cls: string) => el('div', text, `line ${cls}`);
const gap = (n: number) => el('div', `… ${n} unchanged line${n === 1 ? '' : 's'} …`, 'line gap');

export function renderInline(box: HTMLElement, lines: DiffLine[]): void {
  box.className = 'diff inline';
  box.replaceChildren();
  for (const item of folded(lines)) {
    if (typeof item === 'number') {
      box.append(gap(item));
      continue;
    }
    if (item.type === 'same') box.append(line(textOf(item), 'ctx'));
    else if (item.type === 'added') box.append(line(item.new ?? '', 'add'));
    else if (item.type === 'removed') box.append(line(item.old ?? '', 'del'));
    else if (item.words) box.append(words(item.words, 'both'));
    else box.append(line(item.old ?? '', 'del'), line(item.new ?? '', 'add'));
  }
}

/** One side's cell of a line. */
function sideOf(item: DiffLine, side: 'old' | 'new'): HTMLElement {
  if (item.type === 'same') return line(textOf(item), 'ctx');
  if (item.type === 'changed') return item.words ? words(item.words, side) : line(item[side] ?? '', side === 'old' ? 'del' : 'add');
  const present = (item.type === 'removed') === (side === 'old');
  return present ? line((side === 'old' ? item.old : item.new) ?? '', side === 'old' ? 'del' : 'add') : line('', 'empty');
}

export function renderSideBySide(box: HTMLElement, lines: DiffLine[]): void {
  box.className = 'diff side';
  box.replaceChildren(el('div', 'Before', 'side-head'), el('div', 'After', 'side-head'));
  const items = folded(lines);
  for (let i = 0; i < items.length; ) {
    const item = items[i]!;
    if (typeof item === 'number') {
      box.append(gap(item), gap(item));
      i++;
      continue;
    }
    if (item.type !== 'removed') {
      box.append(sideOf(item, 'old'), sideOf(item, 'new'));
      i++;
      continue;
    }
    // A run of removed lines and the added run after it face each other, row by row.
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < items.length && typeof items[i] !== 'number' && (items[i] as DiffLine).type === 'removed')
      removed.push(items[i++] as DiffLine);
    while (i < items.length && typeof items[i] !== 'number' && (items[i] as DiffLine).type === 'added') added.push(items[i++] as DiffLine);
    for (let row = 0; row < Math.max(removed.length, added.length); row++) {
      box.append(
        removed[row] ? sideOf(removed[row]!, 'old') : line('', 'empty'),
        added[row] ? sideOf(added[row]!, 'new') : line('', 'empty'),
      );
    }
  }
}

/** A snapshot's own text (a diff of it with itself: every line unchanged). */
export function renderPreview(box: HTMLElement, lines: DiffLine[]): void {
  box.replaceChildren(...lines.map((l) => line(textOf(l), 'ctx')));
}
