/**
 * Rebuilds document structure from positioned lines: font sizes clearly above the body size
 * become headings (the largest size h1, the next h2, …), bullet and number markers become lists
 * (with their wrapped lines), runs of aligned multi-cell lines become tables, and the remaining
 * lines join into paragraphs, which break at vertical gaps, first-line indents and short closing
 * lines, continue across page and column breaks mid-sentence, and are de-hyphenated.
 */
import { escapeHtml, heading, htmlTable, note, paragraph } from '../../../core/kit.ts';
import type { Line, Segment } from './lines.ts';

export interface OrderedPage {
  number: number;
  lines: Line[];
}

const LIST_MARKER = /^(?:[•◦▪▫●○■□‣⁃∙·*–—-]|(\(?(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]))\s+(\S.*)$/;
const SENTENCE_END = /[.!?:;]["'”’)\]]?$/;
/** Baselines further apart than this many font sizes are separate paragraphs. */
const PARAGRAPH_GAP = 1.7;
const HEADING_RATIO = 1.15;
const MAX_HEADING_CHARS = 200;

const sizeKey = (size: number) => Math.round(size * 2) / 2;

/** Body size (the size most characters are set in) and a heading level for each larger size. */
function headingLevels(lines: Line[]): Map<number, number> {
  const chars = new Map<number, number>();
  const stats = new Map<number, { lines: number; chars: number }>();
  for (const line of lines) {
    const key = sizeKey(line.size);
    chars.set(key, (chars.get(key) ?? 0) + line.text.length);
    const s = stats.get(key) ?? { lines: 0, chars: 0 };
    s.lines++;
    s.chars += line.text.length;
    stats.set(key, s);
  }
  const body = [...chars.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  // A larger size used for long lines is display text (a lead paragraph), not a heading.
  const sizes = [...stats.entries()]
    .filter(([key, s]) => key >= body * HEADING_RATIO && s.chars / s.lines <= 120)
    .map(([key]) => key)
    .sort((a, b) => b - a);
  return new Map(sizes.map((key, i) => [key, Math.min(6, i + 1)]));
}

function joinText(a: string, b: string): string {
  if (/\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a.slice(0, -1) + b;
  return `${a} ${b}`;
}

/** Does `line` carry on the paragraph whose last line is `prev`? */
function continues(prev: Line, line: Line, first: Line, widest: number): boolean {
  if (Math.abs(sizeKey(prev.size) - sizeKey(line.size)) > 0.5) return false;
  const delta = line.y - prev.y;
  if (line.page !== prev.page || delta <= 0) {
    // A page or column break: only a sentence cut in half carries on.
    return !SENTENCE_END.test(prev.text) && /^\p{Ll}/u.test(line.text);
  }
  if (delta > PARAGRAPH_GAP * Math.max(prev.size, line.size)) return false;
  if (SENTENCE_END.test(prev.text)) {
    if (line.x0 > first.x0 + 0.8 * line.size) return false; // first-line indent of a new paragraph
    if (prev.x1 < widest - 3 * prev.size) return false; // the short closing line of a paragraph
  }
  return true;
}

/** The column each segment falls in (by overlap), or null when the line does not fit the columns. */
function cellsFor(segments: Segment[], columns: Array<{ x0: number; x1: number }>): string[] | null {
  const cells = columns.map(() => '');
  for (const s of segments) {
    let best = -1;
    let bestOverlap = 0;
    columns.forEach((c, k) => {
      const overlap = Math.min(c.x1, s.x1) - Math.max(c.x0, s.x0);
      if (overlap > bestOverlap) [best, bestOverlap] = [k, overlap];
    });
    if (best < 0 || cells[best]) return null;
    cells[best] = s.text;
    columns[best] = { x0: Math.min(columns[best]!.x0, s.x0), x1: Math.max(columns[best]!.x1, s.x1) };
  }
  return cells;
}

const isTableRow = (line: Line) => line.segments.length >= 2 && !LIST_MARKER.test(line.text);

/** Consecutive aligned lines of two or more cells starting at `start`: rows and the index after them. */
function tableAt(lines: Line[], start: number): { rows: string[][]; end: number } | null {
  const first = lines[start]!;
  if (!isTableRow(first)) return null;
  const columns = first.segments.map((s) => ({ x0: s.x0, x1: s.x1 }));
  const rows = [first.segments.map((s) => s.text)];
  let prev = first;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    if (line.page !== prev.page || !isTableRow(line) || line.y <= prev.y || line.y - prev.y > 3 * prev.size) break;
    if (Math.abs(line.size - first.size) > 1.5) break;
    const cells = cellsFor(line.segments, columns);
    if (!cells) break;
    rows.push(cells);
    prev = line;
  }
  return rows.length >= 2 ? { rows, end } : null;
}

export function renderBlocks(pages: OrderedPage[], options: { pageMarkers: boolean; totalPages: number }): string {
  const levels = headingLevels(pages.flatMap((p) => p.lines));
  const out: string[] = [];
  let para: { first: Line; last: Line; text: string; widest: number } | null = null;
  let list: { ordered: boolean; items: string[]; last: Line; x0: number } | null = null;
  const flushParagraph = () => {
    if (para) out.push(paragraph(para.text));
    para = null;
  };
  const flushList = () => {
    if (list)
      out.push(
        `<${list.ordered ? 'ol' : 'ul'}>${list.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</${list.ordered ? 'ol' : 'ul'}>`,
      );
    list = null;
  };
  const flush = () => {
    flushParagraph();
    flushList();
  };

  for (const page of pages) {
    if (options.pageMarkers) {
      flush();
      out.push(note(`Page ${page.number} of ${options.totalPages}`));
    }
    const lines = page.lines;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const table = tableAt(lines, i);
      if (table) {
        flush();
        out.push(htmlTable(table.rows.map((row) => row.map(escapeHtml))));
        i = table.end - 1;
        continue;
      }
      const level = levels.get(sizeKey(line.size));
      if (level && line.text.length <= MAX_HEADING_CHARS) {
        flush();
        let text = line.text;
        // A heading wrapped over several lines is still one heading.
        while (
          i + 1 < lines.length &&
          sizeKey(lines[i + 1]!.size) === sizeKey(line.size) &&
          lines[i + 1]!.page === line.page &&
          lines[i + 1]!.y - lines[i]!.y > 0 &&
          lines[i + 1]!.y - lines[i]!.y <= 1.6 * line.size
        ) {
          text = joinText(text, lines[++i]!.text);
        }
        out.push(heading(level, text));
        continue;
      }
      const marker = LIST_MARKER.exec(line.text);
      if (marker) {
        flushParagraph();
        const ordered = marker[1] !== undefined;
        if (list && (list.ordered !== ordered || line.y - list.last.y > 2.5 * line.size)) flushList();
        list ??= { ordered, items: [], last: line, x0: line.x0 };
        list.items.push(marker[2]!);
        list.last = line;
        continue;
      }
      if (
        list &&
        !para &&
        line.page === list.last.page &&
        line.y > list.last.y &&
        line.y - list.last.y <= PARAGRAPH_GAP * line.size &&
        line.x0 > list.x0 + 0.3 * line.size
      ) {
        // A wrapped list item: indented under its marker.
        list.items[list.items.length - 1] = joinText(list.items[list.items.length - 1]!, line.text);
        list.last = line;
        continue;
      }
      if (para && continues(para.last, line, para.first, para.widest)) {
        para.text = joinText(para.text, line.text);
        para.last = line;
        para.widest = Math.max(para.widest, line.x1);
        continue;
      }
      flush();
      para = { first: line, last: line, text: line.text, widest: line.x1 };
    }
  }
  flush();
  return out.join('\n');
}
