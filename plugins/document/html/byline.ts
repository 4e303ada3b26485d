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

/**
 * Text with a ` | ` where two elements touch without whitespace: `<span>Lucas Nolan</span><span>22 Dec</span>`
 * renders as two separate pieces, and textContent would glue them into "Lucas Nolan22 Dec".
 */
export function visibleText(el: Element): string {
  let text = '';
  const stack: Node[] = [el];
  while (stack.length) {
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
  for (const selector of BYLINE_SELECTORS) {
    const candidates = [...body.querySelectorAll(selector)].slice(0, MAX_CANDIDATES);
    for (const el of candidates) {
      const name = cleanPersonName(visibleText(el));
      if (name) return name;
    }
  }
  return null;
}
