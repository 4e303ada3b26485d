/**
 * The single door to an HTML DOM. Everything that parses HTML goes through here. Pages are built
 * the way a browser builds them (the HTML standard's tree construction, dom-tree.ts) into
 * linkedom's DOM, which is what extraction reads: a fraction of a conformant DOM's cost per node.
 */
import { buildDocument, buildFragment } from './dom-tree.ts';
import { attr, END, NEXT } from './dom-links.ts';
export { attr } from './dom-links.ts';
import { countElementWords } from './word-count.ts';

export type DomDocument = Document;
export type DomElement = Element;

export interface ParseOptions {
  /**
   * The standard's scripting flag. On by default, as in the browsers people read pages in:
   * `<noscript>` content is raw text (the clean transform parses what pages keep there,
   * plugins/transform/clean/noscript.ts). Off, a `<noscript><img>` in `<head>` ends the head and
   * moves the title into the body.
   */
  scripting?: boolean;
  /** Elements the tree may have; the parse stops there, keeping what it built (dom-tree.ts). */
  maxElements?: number;
}

/** No parse builds more elements than this, nor more than two per character of markup. */
export const MAX_TREE_ELEMENTS = 1_000_000;

const treeOptions = (markup: string, options: ParseOptions) => ({
  scripting: options.scripting ?? true,
  maxElements: Math.min(options.maxElements ?? MAX_TREE_ELEMENTS, 2 * markup.length + 64),
});

/** Parses a whole page. Never throws: any input yields `<html>` with a head and a body (or a frameset). */
export function parseHtmlDocument(html: string, options: ParseOptions = {}): DomDocument {
  return buildDocument(html, treeOptions(html, options)).node;
}

/** The same, saying whether the whole markup was read, or the parse stopped at `limit` elements. */
export function parseHtmlPage(html: string, options: ParseOptions = {}): { dom: DomDocument; complete: boolean; limit: number } {
  const tree = treeOptions(html, options);
  const { node, complete } = buildDocument(html, tree);
  return { dom: node, complete, limit: tree.maxElements };
}

/** Parses an HTML fragment into the body of a fresh document and returns that body. */
export function parseHtmlFragment(html: string): DomElement {
  return parseHtmlDocument(`<!doctype html><html><head></head><body>${html}`).body;
}

/**
 * Parses `html` as the children of `context` would be (as `innerHTML` does), into nodes of its
 * document, returned in a detached fragment. `scripting: false` reads `<noscript>` markup as a
 * browser without scripts shows it.
 */
export function parseHtmlChildren(context: DomElement, html: string, options: ParseOptions = {}): DocumentFragment {
  return buildFragment(context, html, treeOptions(html, options)).node;
}

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DETAILS',
  'DIALOG',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TR',
  'UL',
  'CAPTION',
  'TBODY',
  'THEAD',
  'TFOOT',
]);
const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD', 'IFRAME', 'OBJECT', 'CANVAS', 'NOFRAMES', 'NOEMBED']);

/**
 * Plain text of an element: block elements become separate paragraphs (blank line between),
 * whitespace inside a block is collapsed, `<pre>` keeps its lines. Iterative, so 10k-deep
 * markup cannot overflow the stack.
 */
export function textOf(root: Node): string {
  return blocksOf(root, true).join('\n\n');
}

/**
 * The number of words in `textOf(root)` (what countWords finds there). An element's words are
 * counted as its text streams past (word-count.ts); other nodes' through their blocks.
 */
export function wordCountOf(root: Node): number {
  if (root.nodeType === ELEMENT) return countElementWords(root as Element, tagOf, BLOCK_TAGS, SKIP_TAGS);
  return countWords(blocksOf(root, false).join('\n'));
}

function blocksOf(root: Node, collapse: boolean): string[] {
  const blocks: string[] = [];
  let line = '';
  const flush = () => {
    const text = collapse ? line.replace(/[ \t\f\v\r\n\u00a0]+/g, ' ').trim() : line;
    if (text) blocks.push(text);
    line = '';
  };
  const stack: Array<Node | 'end-block'> = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === 'end-block') {
      flush();
      continue;
    }
    if (node.nodeType === 3) {
      line += node.nodeValue ?? '';
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = node.nodeType === 1 ? tagOf(node as Element) : '';
    if (SKIP_TAGS.has(tag)) continue;
    if (tag === 'PRE') {
      flush();
      const pre = (node.textContent ?? '').replace(/^\n+|\s+$/g, '');
      if (pre) blocks.push(pre);
      continue;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) {
      flush();
      stack.push('end-block');
    } else if (tag === 'TD' || tag === 'TH') line += ' ';
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  flush();
  return blocks;
}

export const ELEMENT = 1;
export const TEXT = 3;

/**
 * The href of the page's first `<base href>` (what `querySelector('base[href]')` finds, template
 * contents passed over), or null: one sweep of the node list, where the selector engine matched
 * every element of a page that has none.
 */
export function baseHref(dom: Document | null | undefined): string | null {
  const top = dom?.documentElement as (Element & Record<symbol, any>) | null | undefined;
  if (!top) return null;
  for (
    let node = top, stop = top[END];
    node && node !== stop;
    node = node.nodeType === ELEMENT && node.localName === 'template' ? node[END] : node[NEXT]
  ) {
    if (node.nodeType === ELEMENT && node.localName === 'base' && attr(node, 'href') !== null) return attr(node, 'href');
  }
  return null;
}

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

export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}_]+(?:['’-][\p{L}\p{N}_]+)*/gu)?.length ?? 0;
}
