/**
 * linkedom's node list, read directly. linkedom keeps a document as one linked list in document
 * order: an element, its attribute nodes, its descendants, then its end marker. Walking that list
 * visits every node once with no allocation, where linkedom's TreeWalker first copies every
 * matching node into an array and every element's `childNodes` builds a fresh one. The tree
 * adapter (dom-tree.ts) links parsed nodes into the same list.
 */
import { DOMParser } from 'linkedom';

const parser = new DOMParser();
/** An empty linkedom HTML document (not even `<html>`). */
export const blankDocument = (): Document => parser.parseFromString('', 'text/html', null) as unknown as Document;

/** linkedom's private link symbols, found by their descriptions on fresh nodes (the pinned version's; checked at load). */
function privateSymbols(): { NEXT: symbol; PREV: symbol; END: symbol; VALUE: symbol } {
  const doc = blankDocument();
  const found = new Map<string, symbol>();
  for (const node of [doc.createElement('p'), doc.createTextNode('')]) {
    for (const s of Object.getOwnPropertySymbols(node)) if (s.description) found.set(s.description, s);
  }
  const pick = (name: string) => {
    const s = found.get(name);
    if (!s)
      throw new Error(
        `core/dom-links: linkedom no longer has its '${name}' node link; update core/dom-links.ts and core/dom-tree.ts for this linkedom version`,
      );
    return s;
  };
  return { NEXT: pick('next'), PREV: pick('prev'), END: pick('end'), VALUE: pick('value') };
}

export const { NEXT, PREV, END, VALUE } = privateSymbols();

type Linked = Record<symbol, any> & { nodeType: number; name?: string };
const ELEMENT = 1;
const ATTRIBUTE = 2;
const TEXT = 3;
const DOCUMENT = 9;

/** The first node to visit under `root` and the node to stop at (a document's: its root element and that element's end). */
function span(root: Node): [Linked | null, Linked | null] {
  if (root.nodeType === DOCUMENT) {
    const top = (root as Document).documentElement as unknown as Linked | null;
    return top ? [top, top[END]] : [null, null];
  }
  const r = root as unknown as Linked;
  return root.nodeType === ELEMENT ? [r[NEXT], r[END]] : [null, null];
}

/**
 * Calls `visit` on every element below `root` (not `root` itself; a document's root element is
 * visited) in document order; when it returns true, that element's subtree is passed over. The
 * list is read as it is at each step: `visit` must not move or remove the element it is given.
 */
export function walkElements(root: Node, visit: (el: Element) => boolean | void): void {
  let [node, stop] = span(root);
  while (node && node !== stop) {
    if (node.nodeType === ELEMENT && visit(node as unknown as Element) === true) {
      node = node[END];
      if (node === stop) break;
    }
    node = node![NEXT];
  }
}

/**
 * The elements below `root` with one of these local names, in document order: what
 * getElementsByTagName finds, or with `skipTemplates` what querySelectorAll finds for a list of tag
 * names (linkedom's passes over a template's content, which it keeps as the template's children),
 * without building every element's name or running a selector engine.
 */
export function elementsNamed(root: Node, names: ReadonlySet<string>, skipTemplates = false): Element[] {
  const out: Element[] = [];
  walkElements(root, (el) => {
    const name = el.localName;
    if (names.has(name)) out.push(el);
    return skipTemplates && name === 'template';
  });
  return out;
}

/**
 * walkElements that also hands `text` every text node it passes (not those in a passed-over
 * subtree): the text a walk over the elements would otherwise read child by child through
 * linkedom's firstChild/nextSibling getters.
 */
export function walkElementsAndText(root: Node, visit: (el: Element) => boolean | void, text: (node: Text) => void): void {
  let [node, stop] = span(root);
  while (node && node !== stop) {
    if (node.nodeType === ELEMENT) {
      if (visit(node as unknown as Element) === true) {
        node = node[END];
        if (node === stop) break;
      }
    } else if (node.nodeType === TEXT) text(node as unknown as Text);
    node = node![NEXT];
  }
}

/** NodeFilter's masks: a node of type t is shown when bit t - 1 is set. */
export const SHOW_ELEMENT = 1;
export const SHOW_TEXT = 4;
export const SHOW_COMMENT = 128;

/** Calls `visit` on every node below `root` whose type `show` selects (NodeFilter masks, as a TreeWalker's), in document order. */
export function walkNodes(root: Node, show: number, visit: (node: Node) => void): void {
  let [node, stop] = span(root);
  while (node && node !== stop) {
    const type = node.nodeType as number;
    if (type > 0 && show & (1 << (type - 1))) visit(node as unknown as Node);
    node = node[NEXT];
  }
}

/** `root` and the elements below it in document order, at most `limit` in all. */
export function firstElements(root: Element, limit: number): Element[] {
  const out: Element[] = [root];
  const stop = (root as unknown as Linked)[END];
  for (let node = (root as unknown as Linked)[NEXT]; node && node !== stop && out.length < limit; node = node[NEXT]) {
    if (node.nodeType === ELEMENT) out.push(node as unknown as Element);
  }
  return out;
}

/**
 * Raw attribute value, or null. On linkedom, `getAttribute` HTML-escapes the value on every call
 * (and for `class` builds a token list) and dominates the hot loops; the attribute nodes, which
 * follow their element in the node list, hold the same text unescaped.
 */
export function attr(el: Element, name: string): string | null {
  for (let node = (el as unknown as Linked)[NEXT]; node && node.nodeType === ATTRIBUTE; node = node[NEXT]) {
    if (node.name === name) return node[VALUE];
  }
  return null;
}

/**
 * The values of several attributes in one pass over the element's attribute nodes (`attr` walks
 * them once per name): `out[i]` is the value of `names[i]`, or null. Returns `out`.
 */
export function attrsOf<N extends readonly string[]>(el: Element, names: N, out: Array<string | null>): { [K in keyof N]: string | null } {
  for (let i = 0; i < names.length; i++) out[i] = null;
  for (let node = (el as unknown as Linked)[NEXT]; node && node.nodeType === ATTRIBUTE; node = node[NEXT]) {
    const i = names.indexOf(node.name!);
    if (i >= 0 && out[i] === null) out[i] = node[VALUE];
  }
  return out as { [K in keyof N]: string | null };
}

/**
 * Does a text child of `el` (not deeper text) pass `test`? Read off the list, stepping over each
 * child element's subtree: linkedom's firstChild and nextSibling getters are slow in the byline and
 * dateline readers' loops over the top of every page.
 */
export function ownTextMatches(el: Element, test: RegExp): boolean {
  const end = (el as unknown as Linked)[END];
  for (let node = (el as unknown as Linked)[NEXT]; node && node !== end; ) {
    const type = node.nodeType;
    if (type === TEXT && test.test(node[VALUE])) return true;
    node = type === ELEMENT ? node[END][NEXT] : node[NEXT];
  }
  return false;
}
