/**
 * Visible bylines: the author name printed on the page when no metadata names one. Tried from
 * the most specific marker (`<a rel="author">`) to the loosest (`.author`, which can also be a
 * bio box: those fail the name check and the next candidate is tried).
 */
import type { DomDocument } from '../../../core/dom.ts';
import { cleanPersonName } from './people.ts';

const BYLINE_SELECTORS = ['a[rel~="author"]', '.byline .author', '.byline-name', '.author-name', '.byline', '.author'];
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
    } else for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return text;
}

export function readByline(dom: DomDocument): string | null {
  const body = dom.body;
  if (!body) return null;
  // One walk over the page for all selectors (a query per selector cost a second on a 10 MB page), then by priority.
  const found = [...body.querySelectorAll(BYLINE_SELECTORS.join(', '))];
  for (const selector of BYLINE_SELECTORS) {
    const candidates = found.filter((el) => el.matches(selector)).slice(0, MAX_CANDIDATES);
    for (const el of candidates) {
      // Past a few hundred characters it is a bio or an article, never a name: no need to read on.
      const name = cleanPersonName(visibleText(el, MAX_BYLINE_CHARS));
      if (name) return name;
    }
  }
  return null;
}
