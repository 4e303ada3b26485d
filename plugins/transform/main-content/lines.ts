/**
 * The content as a reader sees it: lines. A line is a run of text between block boundaries (a
 * block element's start or end, a `<br>`), as the plain-text output breaks it, whatever elements
 * carry it: a classic page's table cell holds a byline, a date and the article's paragraphs as
 * runs of text between `<br>`s, a modern one a `<p>` each. Lines are what edges.ts reads and removes.
 */
import { elementsNamed } from '../../../core/kit.ts';
import { BLOCK } from './tags.ts';
import { ELEMENT, TEXT, tagOf, visibleLength } from './walk.ts';

export interface Line {
  /** The text nodes of the line, in order. */
  nodes: Text[];
  /** Its text, whitespace collapsed (built when first read: most lines are only counted). */
  readonly text: string;
  /** Visible characters, and of them inside links. */
  chars: number;
  linkChars: number;
}

/** Where lines break, as in the plain-text output (table cells of one row stay one line). */
const BREAKS = new Set([...BLOCK, 'BR']);
BREAKS.delete('TD');
BREAKS.delete('TH');
/** Never read as lines: code and data keep every line they have. */
const OPAQUE = new Set(['PRE', 'CODE', 'MATH']);
/** Elements kept when the text around them goes: what a line's removal must not take along. */
const KEEP = new Set(['IMG', 'PICTURE', 'VIDEO', 'TABLE', 'PRE']);

/** The lines under `root` in document order; code and data tables are each one opaque line. */
export function linesOf(root: Element): Line[] {
  const lines: Line[] = [];
  let cur: Line = empty();
  const flush = () => {
    // (a line with no text has no nodes either: it serves as the next, most boundaries close none)
    if (cur.chars === 0) return;
    lines.push(cur);
    cur = empty();
  };
  // (an explicit stack: deep markup cannot overflow it; END marks where a block closes)
  const stack: Array<Node | typeof END | typeof LINK_END> = [root];
  let inLink = 0;
  while (stack.length) {
    const n = stack.pop()!;
    if (n === END) {
      flush();
      continue;
    }
    if (n === LINK_END) {
      inLink--;
      continue;
    }
    if (n.nodeType === TEXT) {
      const chars = visibleLength(n.nodeValue ?? '');
      // (the space between two inline elements, "<time>09:42</time> <a>…</a>", is part of the line's text)
      if (!chars) {
        if (cur.nodes.length) cur.nodes.push(n as Text);
        continue;
      }
      cur.nodes.push(n as Text);
      cur.chars += chars;
      if (inLink) cur.linkChars += chars;
      continue;
    }
    if (n.nodeType !== ELEMENT) continue;
    const tag = tagOf(n as Element);
    if (OPAQUE.has(tag) || (tag === 'TABLE' && isDataTable(n as Element))) {
      // (a data table or code block: one line nothing matches, so it is never trimmed)
      flush();
      const opaque = empty();
      opaque.chars = Math.max(1, visibleLength(n.textContent ?? ''));
      lines.push(opaque);
      continue;
    }
    if (BREAKS.has(tag)) {
      flush();
      stack.push(END);
    }
    if (tag === 'A') {
      inLink++;
      stack.push(LINK_END);
    }
    for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  flush();
  return lines;
}

/** A table with header cells holds data (a layout table, the classic page's frame, holds lines). */
function isDataTable(table: Element): boolean {
  return elementsNamed(table, DATA_SIGNS, true).length > 0;
}

const DATA_SIGNS = new Set(['th', 'thead', 'caption']);

const END = Symbol('end');
const LINK_END = Symbol('link-end');
function empty(): Line {
  let text: string | null = null;
  const line = {
    nodes: [] as Text[],
    chars: 0,
    linkChars: 0,
    get text(): string {
      return (text ??= line.nodes
        .map((n) => n.nodeValue ?? '')
        .join('')
        .replace(/\s+/g, ' ')
        .trim());
    },
  };
  return line;
}

/**
 * Removes a line: its text nodes and the elements left with nothing to show (a byline's `<p>`,
 * its link), up to `root`, and the `<br>` that ended it.
 */
export function removeLine(line: Line, root: Element): void {
  for (const node of line.nodes) {
    let gone: Node = node;
    for (let p = node.parentNode; p && p !== root && p.nodeType === ELEMENT; p = p.parentNode) {
      if (showsBeside(p, gone)) break;
      gone = p;
    }
    const next = nextSiblingElement(gone);
    gone.parentNode?.removeChild(gone);
    if (next && tagOf(next) === 'BR') next.parentNode?.removeChild(next);
  }
}

/** Does `p` show anything (visible text, a picture, a table) besides its child `gone`? */
function showsBeside(p: Node, gone: Node): boolean {
  for (let c = p.firstChild; c; c = c.nextSibling) if (c !== gone && shows(c)) return true;
  return false;
}

/** Visible text or a kept element anywhere under `n` (stops at the first). */
function shows(n: Node): boolean {
  const stack: Node[] = [n];
  while (stack.length) {
    const at = stack.pop()!;
    if (at.nodeType === TEXT && visibleLength(at.nodeValue ?? '') > 0) return true;
    if (at.nodeType !== ELEMENT) continue;
    if (KEEP.has(tagOf(at as Element))) return true;
    for (let c = at.firstChild; c; c = c.nextSibling) stack.push(c);
  }
  return false;
}

/** The next sibling when it is an element, skipping whitespace. */
function nextSiblingElement(n: Node): Element | null {
  for (let s = n.nextSibling; s; s = s.nextSibling) {
    if (s.nodeType === ELEMENT) return s as Element;
    if (s.nodeType === TEXT && visibleLength(s.nodeValue ?? '') > 0) return null;
  }
  return null;
}
