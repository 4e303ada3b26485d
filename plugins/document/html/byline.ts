/**
 * Visible bylines: the author name printed on the page when no metadata names one. Tried from
 * the most specific marker (`<a rel="author">`) to the loosest (`.author`, which can also be a
 * bio box: those fail the name check and the next candidate is tried).
 */
import { tagOf, type DomDocument } from '../../../core/dom.ts';
import { cleanPersonName } from './people.ts';
import { hasClass, inBody, indexPage, tokens, type PageIndex } from './page-index.ts';

/**
 * Where bylines are, most specific first: `a[rel~=author]`, `.byline .author`, `.byline-name`,
 * `.author-name`, `.byline`, `.author`, tested on the page index's marked elements.
 */
const BYLINE_MARKS: ReadonlyArray<(el: Element) => boolean> = [
  (el) => tagOf(el) === 'A' && tokens(el, 'rel').some((rel) => rel.toLowerCase() === 'author'),
  (el) => hasClass(el, 'author') && hasAncestorClass(el, 'byline'),
  (el) => hasClass(el, 'byline-name'),
  (el) => hasClass(el, 'author-name'),
  (el) => hasClass(el, 'byline'),
  (el) => hasClass(el, 'author'),
];

function hasAncestorClass(el: Element, name: string): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) if (hasClass(p, name)) return true;
  return false;
}
/** Enough to pass over a few bio boxes without scanning every comment on a long thread. */
const MAX_CANDIDATES = 20;
const MAX_BYLINE_CHARS = 300;

/**
 * Text with a ` | ` where two elements touch without whitespace: `<span>Lucas Nolan</span><span>22 Dec</span>`
 * renders as two separate pieces, and textContent would glue them into "Lucas Nolan22 Dec".
 */
export function visibleText(el: Element, maxChars = Infinity): string {
  let text = '';
  const stack: Node[] = [el];
  // The cap stops the walk early: a dateline candidate may be a container holding a whole article.
  while (stack.length && text.length < maxChars) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      const piece = node.nodeValue ?? '';
      if (!piece) continue;
      text += text && /\S$/.test(text) && /^\S/.test(piece) ? ` | ${piece}` : piece;
    } else {
      // (linkedom lists the children afresh on every read of childNodes)
      const children = node.childNodes;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return text;
}

export function readByline(dom: DomDocument, index: PageIndex = indexPage(dom)): string | null {
  const body = dom.body;
  if (!body) return null;
  const found = index.marked.filter((el) => inBody(el, body) && BYLINE_MARKS.some((mark) => mark(el)));
  for (const mark of BYLINE_MARKS) {
    const candidates = found.filter(mark).slice(0, MAX_CANDIDATES);
    for (const el of candidates) {
      // Past a few hundred characters it is a bio or an article, never a name: no need to read on.
      const name = cleanPersonName(visibleText(el, MAX_BYLINE_CHARS));
      if (name) return name;
    }
  }
  return null;
}
