/**
 * Bounds on what one HTML page may cost. linkedom builds the whole tree from the whole string at
 * once (a 20 MB page of `<p>x</p>` is 2.5 million elements and ~3 GB), so the element count is
 * bounded before parsing: a scan over the text counts start tags the way the parser's tokenizer
 * sees them (not inside comments or raw-text elements) and the markup is cut where the limit is
 * reached. The parser closes whatever is open at the cut, as it does at any end of input. Depth
 * is bounded after parsing, where nesting is known exactly (implied end tags, misnesting):
 * elements deeper than the limit are replaced by their text. Both keep what the page shows up to
 * the limit and say so in a warning, rather than refusing a page a user asked for; real pages
 * stay far below both (browsers stop nesting at 512).
 */
import { ELEMENT } from '../../../core/dom.ts';

export interface ParseLimits {
  maxElements: number;
  maxDepth: number;
}

/** Elements whose content the tokenizer reads as text up to their end tag (htmlparser2's list). */
const RAW_TEXT = /(script|style|title|textarea|xmp)[\s/>]/iy;

/**
 * Where to cut `html` so that it holds at most `maxElements` start tags: the offset of the first
 * start tag over the limit, or null when the whole page is within it.
 */
export function elementCutOffset(html: string, maxElements: number): number | null {
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

/** Replaces every element nested deeper than `maxDepth` below `root` by its text; returns how many subtrees were flattened. */
export function flattenDeeperThan(root: Node, maxDepth: number): number {
  let flattened = 0;
  // iterative walk with the depth of each node: the pages this is for would overflow a recursive one
  const stack: Array<[Node, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT) continue;
      if (depth + 1 < maxDepth) {
        stack.push([child, depth + 1]);
      } else if ((child as Element).firstElementChild) {
        // the element at the limit stays; what is below it becomes its text
        (child as Element).textContent = child.textContent;
        flattened++;
      }
    }
  }
  return flattened;
}

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function indexOfIgnoreCase(text: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[/]/g, '\\/'), 'gi');
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}
