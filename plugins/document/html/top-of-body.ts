/**
 * The top of a page's body as the dateline and byline readers search it: the body's first
 * elements in document order, each with what its own text (its text children, not deeper text)
 * shows: a "Published …" lead-in as its first child, a digit, the word "by". One sweep of
 * linkedom's node list (core/dom-links.ts) lists the elements and reads their text children; the
 * readers used to walk every listed element's children again, once per question.
 */
import { END, NEXT, VALUE } from '../../../core/kit.ts';

/** The element's first child is text opening with "Published" / "Posted" / "Date" (dateline.ts). */
export const LEAD_IN_TEXT = 1;
/** A text child holds a digit (dateline.ts: date-only lines). */
export const DIGIT_TEXT = 2;
/** A text child holds the word "by" (byline.ts). */
export const BY_TEXT = 4;

export const LEAD_IN = /^\s*(?:first\s+)?(?:published|posted|dated?)\b/i;
const DIGIT = /\d/;
/** Elements whose text is not text a reader sees (byline.ts). */
const CODE = new Set(['script', 'style', 'noscript', 'template', 'textarea']);
/** Internal: the element's text is code, not searched for "by". */
const NO_BY = 8;
const BY = /\bby\b/i;

export interface TopOfBody {
  body: Element;
  /** `body` and the elements below it in document order, `limit` in all at most. */
  elements: readonly Element[];
  /** Per element, the bits above. */
  flags: Uint8Array;
}

type Linked = Record<symbol, any> & { nodeType: number };
const ELEMENT = 1;
const ATTRIBUTE = 2;
const TEXT = 3;
/** linkedom's node type for an element's end marker. */
const NODE_END = -1;

export function readTopOfBody(body: Element, limit: number): TopOfBody {
  const elements: Element[] = [body];
  const flags: number[] = [0];
  // listed elements open around the sweep (indexes into `elements`); text belongs to the innermost
  const open: number[] = [0];
  /** The innermost open element has had no child yet. */
  let first = true;
  const stop = (body as unknown as Linked)[END];
  for (let node: Linked = (body as unknown as Linked)[NEXT]; node && node !== stop; ) {
    const type = node.nodeType;
    if (type === ELEMENT) {
      if (elements.length >= limit) {
        // (past the limit no element is listed, so nothing below this one is a listed element's own text)
        first = false;
        node = node[END][NEXT];
        continue;
      }
      open.push(elements.length);
      elements.push(node as unknown as Element);
      // (a script's or a style's text is code: the byline reader never reads it, and a large inline bundle would be searched for nothing)
      flags.push(CODE.has((node as unknown as Element).localName) ? NO_BY : 0);
      first = true;
    } else if (type === TEXT) {
      const at = open[open.length - 1]!;
      const text: string = node[VALUE] ?? '';
      let f = flags[at]!;
      if (first && LEAD_IN.test(text)) f |= LEAD_IN_TEXT;
      if (!(f & DIGIT_TEXT) && DIGIT.test(text)) f |= DIGIT_TEXT;
      if (!(f & (BY_TEXT | NO_BY)) && BY.test(text)) f |= BY_TEXT;
      flags[at] = f;
      first = false;
    } else if (type === NODE_END) {
      open.pop();
      first = false;
    } else if (type !== ATTRIBUTE) first = false;
    node = node[NEXT];
  }
  return { body, elements, flags: Uint8Array.from(flags) };
}
