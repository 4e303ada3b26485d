/**
 * Bounds on what one HTML page may cost. The parser builds the whole tree from the whole string at
 * once (a 20 MB page of `<p>x</p>` is 2.5 million elements and ~3 GB), so the element count is
 * bounded before parsing: a scan over the text counts start tags the way the parser's tokenizer
 * sees them (not inside comments or raw-text elements) and the markup is cut where the limit is
 * reached. The parser closes whatever is open at the cut, as it does at any end of input. Markup
 * can still build more elements than it has start tags (the standard reopens unclosed formatting
 * elements in every paragraph), so the tree itself is bounded too (parse.ts). Depth is bounded
 * after parsing, where nesting is known exactly (implied end tags, misnesting): elements deeper
 * than the limit are replaced by their text. All keep what the page shows up to the limit and say
 * so in a warning, rather than refusing a page a user asked for; real pages stay far below them
 * (browsers stop nesting at 512).
 */
import { END, NEXT } from '../../../core/kit.ts';

export interface ParseLimits {
  maxElements: number;
  maxDepth: number;
}

/**
 * Elements whose content the standard's tokenizer reads as text up to their end tag (noscript: with
 * scripting on, as Trawl parses); after `<plaintext>` everything is text.
 */
const RAW_TEXT = /(script|style|title|textarea|xmp|iframe|noembed|noframes|noscript|plaintext)[\s/>]/iy;

/**
 * Where to cut `html` so that it holds at most `maxElements` start tags: the offset of the first
 * start tag over the limit, or null when the whole page is within it.
 */
export function elementCutOffset(html: string, maxElements: number): number | null {
  // every start tag takes at least two characters ("<p"): most pages are too short to be over
  if (html.length < 2 * (maxElements + 1)) return null;
  // cheap first pass: a page with fewer '<' than the limit cannot have more elements
  let lts = 0;
  for (let i = html.indexOf('<'); i >= 0 && lts <= maxElements; i = html.indexOf('<', i + 1)) lts++;
  if (lts <= maxElements) return null;
  let count = 0;
  let i = html.indexOf('<');
  while (i >= 0 && i < html.length - 1) {
    const c = html.charCodeAt(i + 1);
    if (isLetter(c)) {
      if (++count > maxElements) return i;
      RAW_TEXT.lastIndex = i + 1;
      const raw = RAW_TEXT.exec(html);
      if (raw) {
        if (raw[1]!.toLowerCase() === 'plaintext') return null;
        // raw text runs to the matching end tag (or the end of the page)
        const end = indexOfIgnoreCase(html, `</${raw[1]!.toLowerCase()}`, i + raw[0].length);
        i = end < 0 ? -1 : html.indexOf('<', end + 2);
        continue;
      }
    } else if (c === 33 /* ! */ && html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? -1 : html.indexOf('<', end + 3);
      continue;
    }
    i = html.indexOf('<', i + 1);
  }
  return null;
}

/** Replaces every element nested deeper than `maxDepth` (`<html>` is 1) by its text; returns how many subtrees were flattened. */
export function flattenDeeperThan(dom: Document, maxDepth: number): number {
  const top = dom.documentElement as unknown as (Element & Linked) | null;
  if (!top || maxDepth < 1) return 0;
  if (maxDepth === 1) return flatten(top) ? 1 : 0;
  let flattened = 0;
  // one sweep of linkedom's node list (core/dom-links.ts), no stack: the pages this is for would
  // overflow a recursive walk, and it runs on every page (from <html>: doctype and comments are
  // not elements). An element opens a level, its end marker closes it.
  let depth = 1;
  const stop = top[END];
  for (let node: Linked = top[NEXT]; node !== stop; ) {
    if (node.nodeType === ELEMENT) {
      if (depth + 1 === maxDepth) {
        // the element at the limit stays; what is below it becomes its text
        if (flatten(node as Element & Linked)) flattened++;
        node = node[END][NEXT];
        continue;
      }
      depth++;
    } else if (node.nodeType === NODE_END) depth--;
    node = node[NEXT];
  }
  return flattened;
}

/** Replaces the subtree of `el` by its text when it has child elements; says whether it had. */
function flatten(el: Element & Linked): boolean {
  const end = el[END];
  for (let node: Linked = el[NEXT]; node !== end; node = node[NEXT]) {
    if (node.nodeType !== ELEMENT) continue;
    const text = el.textContent;
    el.textContent = text;
    return true;
  }
  return false;
}

type Linked = Record<symbol, any> & { nodeType: number };
const ELEMENT = 1;
/** linkedom's node type for an element's end marker. */
const NODE_END = -1;

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function indexOfIgnoreCase(text: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[/]/g, '\\/'), 'gi');
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}
