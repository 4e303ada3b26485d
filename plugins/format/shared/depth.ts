/**
 * A guard against hostile nesting before turndown. turndown converts recursively, so a page
 * nested a few thousand elements deep overflows the stack, and nested quotes and lists re-prefix
 * their whole content at every level (quadratic time). Real pages stay far shallower (at most 54
 * levels below `<body>` across the 858 pages of the main-content dev set), so content deeper than
 * MAX_MARKDOWN_DEPTH is flattened to its paragraphs of text: the words survive, the markup
 * below that depth (links, images, emphasis) does not.
 */
import { textOf } from '../../../core/kit.ts';

export const MAX_MARKDOWN_DEPTH = 128;

/** Only cells render in a table (tables.ts), so paragraphs must go into a cell, not a row. */
const TABLE_PARTS = new Set(['TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'COLGROUP', 'CAPTION']);

/** Elements at exactly `depth` levels below `root` that have element children, found without recursion. */
function elementsAtDepth(root: Element, depth: number): Element[] {
  const found: Element[] = [];
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length) {
    const [el, level] = stack.pop()!;
    if (level === depth) {
      if (el.firstElementChild) found.push(el);
      continue;
    }
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) stack.push([child, level + 1]);
  }
  return found;
}

/**
 * `root` itself when it is shallow enough (the common case costs one walk and no copy), else a
 * copy in which every element at `maxDepth` holds its text as plain paragraphs.
 */
export function limitDepth(root: Element, maxDepth = MAX_MARKDOWN_DEPTH): Element {
  if (elementsAtDepth(root, maxDepth).length === 0) return root;
  const copy = root.cloneNode(true) as Element;
  const document = copy.ownerDocument;
  for (let el of elementsAtDepth(copy, maxDepth)) {
    while (TABLE_PARTS.has(el.tagName) && el.parentElement && el !== copy) el = el.parentElement;
    if (!copy.contains(el)) continue; // inside a subtree flattened already
    const paragraphs = textOf(el)
      .split('\n\n')
      .filter(Boolean)
      .map((text) => {
        const p = document.createElement('p');
        p.textContent = text;
        return p;
      });
    el.replaceChildren(...paragraphs);
  }
  return copy;
}
