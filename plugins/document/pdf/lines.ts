/**
 * From pdf.js text items to lines in reading order. Items are placed by position, not by the
 * order the content stream drew them: runs on one baseline become a line, a line splits into
 * segments where a wide gap separates text (table cells, columns), running headers, footers and
 * page numbers repeated in the page margins are dropped, and a page set in two columns is read
 * left column first, then right, between any full-width lines.
 */

export interface TextRun {
  text: string;
  x: number;
  /** Baseline, measured from the top of the page. */
  y: number;
  width: number;
  size: number;
}

export interface Segment {
  text: string;
  x0: number;
  x1: number;
}

export interface Line {
  page: number;
  y: number;
  x0: number;
  x1: number;
  size: number;
  text: string;
  segments: Segment[];
}

export interface PageLines {
  number: number;
  width: number;
  height: number;
  lines: Line[];
}

/** A gap this many font sizes wide separates cells or columns rather than words. */
const SEGMENT_GAP = 1.2;
const WORD_GAP = 0.18;
/** Top and bottom share of the page where running headers and footers live. */
const MARGIN = 0.08;

function segmentsOf(runs: TextRun[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const run of runs) {
    const gap = current ? run.x - current.x1 : 0;
    if (!current || gap > SEGMENT_GAP * run.size) {
      current = { text: run.text, x0: run.x, x1: run.x + run.width };
      segments.push(current);
      continue;
    }
    const space = gap > WORD_GAP * run.size ? ' ' : '';
    current.text += space + run.text;
    current.x1 = Math.max(current.x1, run.x + run.width);
  }
  for (const s of segments) s.text = s.text.replace(/\s+/g, ' ').trim();
  return segments.filter((s) => s.text);
}

function makeLine(page: number, runs: TextRun[]): Line {
  runs.sort((a, b) => a.x - b.x);
  const segments = segmentsOf(runs);
  const text = segments.map((s) => s.text).join(' ');
  const size = runs.reduce((max, r) => (r.text.trim() ? Math.max(max, r.size) : max), 0) || runs[0]!.size;
  return { page, y: runs[0]!.y, x0: segments[0]?.x0 ?? runs[0]!.x, x1: Math.max(...runs.map((r) => r.x + r.width)), size, text, segments };
}

/** Runs on (nearly) the same baseline form a line; lines come out top to bottom. */
export function groupLines(page: number, runs: TextRun[]): Line[] {
  const sorted = runs.filter((r) => r.text.trim()).sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Line[] = [];
  let bucket: TextRun[] = [];
  for (const run of sorted) {
    const anchor = bucket[0];
    if (anchor && Math.abs(run.y - anchor.y) > 0.4 * Math.max(run.size, anchor.size)) {
      lines.push(makeLine(page, bucket));
      bucket = [];
    }
    bucket.push(run);
  }
  if (bucket.length) lines.push(makeLine(page, bucket));
  return lines.filter((l) => l.text);
}

const PAGE_NUMBER = /^(?:page\s+)?[-–—]?\s*\d{1,5}\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,5})?$/i;

/**
 * Drops margin lines that repeat on at least half the pages (digits ignored, so "Page 3 of 9"
 * repeats) and lone page numbers.
 */
export function dropRunningHeaders(pages: PageLines[]): void {
  const inMargin = (line: Line, page: PageLines) => line.y < page.height * MARGIN || line.y > page.height * (1 - MARGIN);
  const key = (line: Line) => line.text.toLowerCase().replace(/\d+/g, '#');
  const seen = new Map<string, number>();
  for (const page of pages) {
    for (const k of new Set(page.lines.filter((l) => inMargin(l, page)).map(key))) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(pages.length / 2));
  for (const page of pages) {
    page.lines = page.lines.filter(
      (line) => !inMargin(line, page) || !(PAGE_NUMBER.test(line.text) || (seen.get(key(line)) ?? 0) >= threshold),
    );
  }
}

interface Gutter {
  start: number;
  end: number;
}

/** Lines with at least this many on each side, mostly prose, make a two-column page. */
const MIN_COLUMN_LINES = 5;
const MIN_COLUMN_TEXT = 25;

/** A vertical strip in the middle of the page that (almost) no line crosses, with prose on both sides. */
function findGutter(page: PageLines): Gutter | null {
  const lines = page.lines;
  if (lines.length < MIN_COLUMN_LINES * 2) return null;
  const from = Math.floor(page.width * 0.3);
  const to = Math.ceil(page.width * 0.7);
  const crossing = new Array<number>(to - from + 1).fill(0);
  for (const line of lines) {
    for (const s of line.segments) {
      for (let x = Math.max(from, Math.floor(s.x0)); x <= Math.min(to, Math.ceil(s.x1)); x++) crossing[x - from]!++;
    }
  }
  // The strip crossed by the fewest lines (full-width titles may cross it, a few at most).
  const fewest = Math.min(...crossing);
  if (fewest > Math.floor(lines.length * 0.1)) return null;
  let best: Gutter | null = null;
  for (let i = 0; i < crossing.length; ) {
    if (crossing[i]! > fewest) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < crossing.length && crossing[j + 1]! <= fewest) j++;
    if (!best || j - i > best.end - best.start) best = { start: from + i, end: from + j };
    i = j + 1;
  }
  if (!best || best.end - best.start < 6) return null;
  const sides = { left: [] as string[], right: [] as string[] };
  for (const line of lines) {
    for (const s of line.segments) {
      if (s.x1 <= best.start) sides.left.push(s.text);
      else if (s.x0 >= best.end) sides.right.push(s.text);
    }
  }
  const prose = (texts: string[]) =>
    texts.length >= MIN_COLUMN_LINES && texts.reduce((n, t) => n + t.length, 0) / texts.length >= MIN_COLUMN_TEXT;
  return prose(sides.left) && prose(sides.right) ? best : null;
}

function part(line: Line, segments: Segment[]): Line {
  return { ...line, segments, x0: segments[0]!.x0, x1: segments[segments.length - 1]!.x1, text: segments.map((s) => s.text).join(' ') };
}

/** Lines of a page in reading order: for two-column pages, column by column between full-width lines. */
export function readingOrder(page: PageLines): Line[] {
  const gutter = findGutter(page);
  if (!gutter) return page.lines;
  const ordered: Line[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = () => {
    ordered.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const line of page.lines) {
    const l = line.segments.filter((s) => s.x1 <= gutter.start);
    const r = line.segments.filter((s) => s.x0 >= gutter.end);
    if (l.length + r.length < line.segments.length) {
      flush();
      ordered.push(line);
      continue;
    }
    if (l.length) left.push(part(line, l));
    if (r.length) right.push(part(line, r));
  }
  flush();
  return ordered;
}
