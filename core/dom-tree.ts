/**
 * The HTML standard's tree construction building linkedom nodes. parse5 runs the standard's
 * tokenizer and tree-construction algorithm (implied html/head/body, misnested formatting
 * elements, foster parenting, raw text …); this tree adapter makes every node it asks for a
 * linkedom node and links it straight into linkedom's node list, so the result is the fast DOM
 * the rest of Trawl reads, built the way a browser builds it, with no second tree and no copy.
 *
 * linkedom keeps a parent's children between the parent and its end marker in one linked list
 * (attributes first). The adapter links nodes there itself, as linkedom's own parser does,
 * rather than through appendChild/setAttribute: those run mutation-observer and custom-element
 * hooks per node, and setAttribute('class') builds a class list (patches/README.md).
 */
import { html, parse, parseFragment, type DefaultTreeAdapterMap, type ParserOptions, type Token, type TreeAdapter } from 'parse5';
import { blankDocument, END, NEXT, PREV, VALUE } from './dom-links.ts';

// Node shapes as this adapter sees them: linkedom's public interfaces plus its private links.
type Linked = Node & Record<symbol, any> & { ownerElement?: unknown };
type Parent = Linked & ParentNode;

const ELEMENT = 1;
const ATTRIBUTE = 2;
const TEXT = 3;
const COMMENT = 8;
const DOCTYPE = 10;
const { NS, DOCUMENT_MODE } = html;

/** The document the nodes of the parse in progress belong to (parsing is synchronous). */
let owner: Document | null = null;
/** Elements the parse in progress may still create. */
let budget = Infinity;
/** Thrown through parse5 to stop a parse at its element budget; the tree built so far stands. */
const OVER_BUDGET = new Error('element budget spent');
const modes = new WeakMap<object, html.DOCUMENT_MODE>();
/**
 * The parse in progress made every element it asks about (a whole page's parse), and these are the
 * ones outside the HTML namespace: parse5 asks each open element's namespace over and over, and
 * linkedom's getter, read across its many element classes, cost more than this.
 */
let ownTree = false;
const foreign = new Set<Element>();

/** The last node of `node`'s segment in the list: an element's end marker, else the node. */
const endOf = (node: Linked): Linked => (node.nodeType === ELEMENT ? node[END] : node);

/** Links the detached `node` (with its subtree) into `parent` before `next` (a child or the end marker). */
function link(parent: Parent, node: Linked, next: Linked): void {
  if (node.parentNode) detach(node);
  const prev = next[PREV];
  const last = endOf(node);
  prev[NEXT] = node;
  node[PREV] = prev;
  last[NEXT] = next;
  next[PREV] = last;
  (node as { parentNode: unknown }).parentNode = parent;
}

function detach(node: Linked): void {
  const prev = node[PREV];
  const last = endOf(node);
  const next = last[NEXT];
  if (prev) prev[NEXT] = next;
  if (next) next[PREV] = prev;
  node[PREV] = null;
  last[NEXT] = null;
  (node as { parentNode: unknown }).parentNode = null;
}

/** Foreign attributes (xlink:href, xml:lang …) keep their namespace, as a browser's Attr does. */
function namespaced(node: Linked, attr: Token.Attribute): void {
  Object.defineProperties(node, {
    namespaceURI: { value: attr.namespace },
    prefix: { value: attr.prefix || null },
    localName: { value: attr.name },
  });
}

/** Adds attribute nodes after `after` (the element or its last attribute), in order. */
function addAttributes(el: Linked, after: Linked, attrs: Token.Attribute[]): void {
  const doc = el.ownerDocument as Document;
  let prev = after;
  const next = after[NEXT];
  for (const attr of attrs) {
    const node = doc.createAttribute(attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name) as unknown as Linked;
    node[VALUE] = attr.value;
    node.ownerElement = el;
    if (attr.namespace) namespaced(node, attr);
    prev[NEXT] = node;
    node[PREV] = prev;
    prev = node;
  }
  prev[NEXT] = next;
  next[PREV] = prev;
}

function createElement(tagName: string, namespace: html.NS, attrs: Token.Attribute[]): Element {
  if (--budget < 0) throw OVER_BUDGET;
  const doc = owner!;
  let el: Linked;
  if (namespace === NS.HTML) el = doc.createElement(tagName) as unknown as Linked;
  else if (namespace === NS.SVG) {
    el = doc.createElementNS(NS.SVG, tagName) as unknown as Linked;
    foreign.add(el as unknown as Element);
  } else {
    // linkedom has no MathML elements: an HTML element that reports its namespace
    el = doc.createElement(tagName) as unknown as Linked;
    Object.defineProperty(el, 'namespaceURI', { value: namespace });
    foreign.add(el as unknown as Element);
  }
  if (attrs.length) addAttributes(el, el, attrs);
  return el as unknown as Element;
}

function childNodes(parent: Parent): Linked[] {
  const out: Linked[] = [];
  for (let n = parent.firstChild as Linked | null; n; n = endOf(n)[NEXT]) {
    if (n === parent[END]) break;
    out.push(n);
  }
  return out;
}

function attributeList(el: Linked): Token.Attribute[] {
  const out: Token.Attribute[] = [];
  for (let n = el[NEXT]; n.nodeType === ATTRIBUTE; n = n[NEXT]) out.push({ name: n.name, value: n[VALUE] });
  return out;
}

function insertText(parent: Parent, text: string): void {
  const last = parent[END][PREV];
  if (last.nodeType === TEXT) last[VALUE] += text;
  else link(parent, owner!.createTextNode(text) as unknown as Linked, parent[END]);
}

function insertTextBefore(parent: Parent, text: string, before: Linked): void {
  const prev = before[PREV];
  if (prev.nodeType === TEXT) prev[VALUE] += text;
  else link(parent, owner!.createTextNode(text) as unknown as Linked, before);
}

function setDocumentType(
  doc: Parent & { createDocumentType(name: string, publicId: string, systemId: string): Linked },
  name: string,
  publicId: string,
  systemId: string,
): void {
  const existing = childNodes(doc).find((n) => n.nodeType === DOCTYPE) as Record<string, string> | undefined;
  if (existing) Object.assign(existing, { name, publicId, systemId });
  else link(doc, doc.createDocumentType(name, publicId, systemId), doc[END]);
}

type AdapterMap = DefaultTreeAdapterMap;
/** parse5's types name its own node shapes; linkedom's nodes stand in for them. */
const adapter = {
  createDocument: () => {
    const doc = blankDocument();
    owner ??= doc;
    return doc;
  },
  createDocumentFragment: () => owner!.createDocumentFragment(),
  createElement,
  createCommentNode: (data: string) => owner!.createComment(data),
  createTextNode: (value: string) => owner!.createTextNode(value),
  appendChild: (parent: Parent, node: Linked) => link(parent, node, parent[END]),
  insertBefore: (parent: Parent, node: Linked, before: Linked) => link(parent, node, before),
  detachNode: (node: Linked) => {
    if (node.parentNode) detach(node);
  },
  // linkedom keeps a template's content as the template's children (its querySelector skips them)
  setTemplateContent: () => {},
  getTemplateContent: (template: Element) => template,
  setDocumentType,
  setDocumentMode: (doc: Document, mode: html.DOCUMENT_MODE) => modes.set(doc, mode),
  getDocumentMode: (doc: Document) => modes.get(doc) ?? DOCUMENT_MODE.NO_QUIRKS,
  insertText,
  insertTextBefore,
  adoptAttributes: (el: Linked, attrs: Token.Attribute[]) => {
    const missing = attrs.filter((a) => !(el as unknown as Element).hasAttribute(a.name));
    let last = el;
    while (last[NEXT].nodeType === ATTRIBUTE) last = last[NEXT];
    if (missing.length) addAttributes(el, last, missing);
  },
  getFirstChild: (node: Parent) => node.firstChild,
  getChildNodes: childNodes,
  getParentNode: (node: Node) => node.parentNode,
  getAttrList: attributeList,
  getTagName: (el: Element) => el.localName,
  getNamespaceURI: (el: Element) => (ownTree && (foreign.size === 0 || !foreign.has(el)) ? NS.HTML : el.namespaceURI),
  getTextNodeContent: (node: Linked) => node[VALUE],
  getCommentNodeContent: (node: Linked) => node[VALUE],
  getDocumentTypeNodeName: (node: DocumentType) => node.name,
  getDocumentTypeNodePublicId: (node: DocumentType) => node.publicId,
  getDocumentTypeNodeSystemId: (node: DocumentType) => node.systemId,
  isTextNode: (node: Node) => node.nodeType === TEXT,
  isCommentNode: (node: Node) => node.nodeType === COMMENT,
  isDocumentTypeNode: (node: Node) => node.nodeType === DOCTYPE,
  isElementNode: (node: Node) => node.nodeType === ELEMENT,
  setNodeSourceCodeLocation: () => {},
  getNodeSourceCodeLocation: () => undefined,
  updateNodeSourceCodeLocation: () => {},
} as unknown as TreeAdapter<AdapterMap>;

export interface TreeOptions {
  /** The standard's scripting flag: on, `<noscript>` content is raw text, as in a browser running scripts. */
  scripting: boolean;
  /**
   * Elements the parse may create. Markup can make far more elements than it has start tags: each
   * paragraph reopens every formatting element still open (`<p><b id=1>x<p><b id=2>x…` makes n²/2),
   * so this bounds the tree itself. The parse stops there, keeping what it built.
   */
  maxElements?: number;
}

export interface Built<T> {
  node: T;
  /** False when the parse stopped at `maxElements`. */
  complete: boolean;
}

/**
 * Runs one parse with `doc` owning the new nodes (null: the document the parse creates). On
 * reaching the element budget the parse stops: the nodes built so far are already in their tree.
 */
function run(
  doc: Document | null,
  options: TreeOptions,
  parseWith: (opts: ParserOptions<AdapterMap>) => void,
): { owner: Document; complete: boolean } {
  owner = doc;
  ownTree = doc === null;
  budget = options.maxElements ?? Infinity;
  try {
    parseWith({ treeAdapter: adapter, scriptingEnabled: options.scripting });
    return { owner: owner!, complete: true };
  } catch (e) {
    if (e !== OVER_BUDGET) throw e;
    return { owner: owner!, complete: false };
  } finally {
    owner = null;
    budget = Infinity;
    ownTree = false;
    foreign.clear();
  }
}

/** A whole page, parsed as a browser parses it, as a linkedom document. */
export function buildDocument(markup: string, options: TreeOptions): Built<Document> {
  const { owner: doc, complete } = run(null, options, (opts) => parse(markup, opts));
  return { node: doc, complete };
}

/**
 * Markup parsed as the children of `context` would be (the standard's fragment parsing, as for
 * `innerHTML`), into nodes of `context`'s document; returned detached, in a document fragment.
 */
export function buildFragment(context: Element, markup: string, options: TreeOptions): Built<DocumentFragment> {
  const doc = context.ownerDocument;
  // parse5 8.1.1 reads a noscript context's content as raw text even with scripting off, where
  // the standard parses it as markup in body mode: a div context is parsed just that way
  const stand = !options.scripting && context.localName === 'noscript' && context.namespaceURI === NS.HTML;
  let fragment = doc.createDocumentFragment();
  const { complete } = run(doc, options, (opts) => {
    fragment = parseFragment((stand ? doc.createElement('div') : context) as never, markup, opts) as unknown as DocumentFragment;
  });
  return { node: fragment, complete };
}
