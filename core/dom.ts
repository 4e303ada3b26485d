/**
 * The single door to an HTML DOM. Everything that parses HTML goes through here, so the parser
 * (linkedom today: a fraction of happy-dom's cost per page) can be swapped in one place.
 */
import { parseHTML } from 'linkedom';

export type DomDocument = Document;
export type DomElement = Element;

/** Parses a whole HTML page. Never throws: broken markup still yields a document with a body. */
export function parseHtmlDocument(html: string): DomDocument {
  const { document } = parseHTML(html.includes('<html') || html.includes('<HTML') ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
  if (!document.body) {
    // linkedom leaves body null on some malformed pages; give callers a body to work with.
    const body = document.createElement('body');
    (document.documentElement ?? document).appendChild(body);
  }
  return document as unknown as DomDocument;
}

/** Parses an HTML fragment into the body of a fresh document and returns that body. */
export function parseHtmlFragment(html: string): DomElement {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  return (document as unknown as Document).body;
}

const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN',
  'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TR', 'UL', 'CAPTION', 'TBODY', 'THEAD', 'TFOOT',
]);
const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD', 'IFRAME', 'OBJECT', 'CANVAS']);

/**
 * Plain text of an element: block elements become separate paragraphs (blank line between),
 * whitespace inside a block is collapsed, `<pre>` keeps its lines. Iterative, so 10k-deep
 * markup cannot overflow the stack.
 */
export function textOf(root: Node): string {
  const blocks: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/[ \t\f\v\r\n\u00a0]+/g, ' ').trim();
    if (text) blocks.push(text);
    line = '';
  };
  const stack: Array<Node | 'end-block'> = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === 'end-block') { flush(); continue; }
    if (node.nodeType === 3) { line += node.nodeValue ?? ''; continue; }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = (node as Element).tagName?.toUpperCase() ?? '';
    if (SKIP_TAGS.has(tag)) continue;
    if (tag === 'PRE') {
      flush();
      const pre = (node.textContent ?? '').replace(/^\n+|\s+$/g, '');
      if (pre) blocks.push(pre);
      continue;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) { flush(); stack.push('end-block'); }
    else if (tag === 'TD' || tag === 'TH') line += ' ';
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  flush();
  return blocks.join('\n\n');
}

export const ELEMENT = 1;
export const TEXT = 3;

/** Is this UTF-16 code unit visible (not whitespace, NBSP, zero-width space or BOM)? */
export const isVisible = (c: number): boolean => c > 32 && c !== 160 && c !== 0x200b && c !== 0xfeff;

/** Number of non-whitespace characters of a string. */
export function visibleLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (isVisible(s.charCodeAt(i))) n++;
  return n;
}

/** Upper-case tag names by local name: linkedom's `tagName` upper-cases on every read. */
const UPPER = new Map<string, string>();

export function tagOf(el: Element): string {
  const name = el.localName;
  let tag = UPPER.get(name);
  if (tag === undefined) {
    tag = name.toUpperCase();
    // bounded: a hostile page can invent any number of custom element names
    if (UPPER.size < 2000) UPPER.set(name, tag);
  }
  return tag;
}

/**
 * Raw attribute value, or null. On linkedom, `getAttribute` HTML-escapes the value on every call
 * and dominates the hot loops; the attribute node's value is the same text, unescaped.
 */
export function attr(el: Element, name: string): string | null {
  if (!el.hasAttributes()) return null;
  return el.getAttributeNode(name)?.value ?? null;
}

export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}_]+(?:['’-][\p{L}\p{N}_]+)*/gu)?.length ?? 0;
}
