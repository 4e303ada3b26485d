/**
 * The elements page metadata is read from, gathered in one walk over the page. Each metadata
 * source used to run its own queries, and every query is a walk over the whole page with a
 * selector test per element: a dozen walks per page were a sixth of a scrape's time. Sources now
 * filter these short lists instead; what a list holds is a superset of what the source's old
 * selector matched, in page order.
 */
import { attr, NEXT, tagOf, VALUE, walkElements } from '../../../core/kit.ts';
import { readTopOfBody, type TopOfBody } from './top-of-body.ts';

/** An element or attribute node in linkedom's node list (core/dom-links.ts). */
type Linked = Record<symbol, any> & { nodeType: number; name?: string };
const ATTRIBUTE = 2;

export interface PageIndex {
  /** `<meta>` with a content attribute. */
  metas: Element[];
  /** `<link>` with a rel attribute. */
  links: Element[];
  /** `<script>` with a type attribute. */
  typedScripts: Element[];
  /** Elements with an itemprop attribute. */
  itemprops: Element[];
  /** Elements with itemscope and itemtype. */
  items: Element[];
  /** Every `<time>`. */
  times: Element[];
  /** Elements whose class names may mark a byline or a date, `<a rel>` and `<time>` (byline.ts, dateline.ts). */
  marked: Element[];
  title: Element | null;
  h1: Element | null;
  /** The first `<base href>`. */
  base: Element | null;
  /** The body's first elements and what their own text shows (topOfBody), read when first asked for. */
  top?: TopOfBody;
}

/** Datelines and bylines sit near the top; a bounded list keeps a 10 MB page from being read twice. */
const TOP_ELEMENTS = 3000;

/**
 * `body` and its first elements in document order (3,000 in all) with what their own text shows,
 * read once per page for the dateline and byline readers.
 */
export function topOfBody(index: PageIndex, body: Element): TopOfBody {
  if (index.top?.body !== body) index.top = readTopOfBody(body, TOP_ELEMENTS);
  return index.top;
}

/** Every class name byline.ts and dateline.ts look for contains one of these. */
const MARK = /byline|author|date|published|posted/i;

export function indexPage(dom: Document): PageIndex {
  const index: PageIndex = {
    metas: [],
    links: [],
    typedScripts: [],
    itemprops: [],
    items: [],
    times: [],
    marked: [],
    title: null,
    h1: null,
    base: null,
  };
  walkElements(dom, (el) => {
    const tag = tagOf(el);
    if (tag === 'TIME') {
      index.times.push(el);
      index.marked.push(el);
    } else if (tag === 'TITLE') index.title ??= el;
    else if (tag === 'H1') index.h1 ??= el;
    // the attributes the lists ask about, in one pass over the element's attribute nodes
    let content = false,
      rel = false,
      type = false,
      href = false,
      itemprop = false,
      itemscope = false,
      itemtype = false;
    let cls: string | null = null;
    let node = (el as unknown as Linked)[NEXT];
    if (node.nodeType !== ATTRIBUTE) return;
    for (; node.nodeType === ATTRIBUTE; node = node[NEXT]) {
      switch (node.name) {
        case 'content':
          content = true;
          break;
        case 'rel':
          rel = true;
          break;
        case 'type':
          type = true;
          break;
        case 'href':
          href = true;
          break;
        case 'itemprop':
          itemprop = true;
          break;
        case 'itemscope':
          itemscope = true;
          break;
        case 'itemtype':
          itemtype = true;
          break;
        case 'class':
          cls ??= node[VALUE] as string;
          break;
      }
    }
    if (tag === 'META' && content) index.metas.push(el);
    else if (tag === 'LINK' && rel) index.links.push(el);
    else if (tag === 'SCRIPT' && type) index.typedScripts.push(el);
    else if (tag === 'BASE' && !index.base && href) index.base = el;
    if (itemprop) index.itemprops.push(el);
    if (itemscope && itemtype) index.items.push(el);
    if (tag === 'TIME') return;
    if ((cls && MARK.test(cls)) || (tag === 'A' && rel)) index.marked.push(el);
  });
  return index;
}

/** The whitespace-separated tokens of an attribute (class, rel, itemprop). */
export function tokens(el: Element, name: string): string[] {
  const value = attr(el, name);
  return value ? value.split(/[ \t\n\f\r]+/).filter(Boolean) : [];
}

/** Is `el` inside `body` (not `body` itself)? */
export function inBody(el: Element, body: Element): boolean {
  for (let p = el.parentNode; p; p = p.parentNode) if (p === body) return true;
  return false;
}

/** Does `el` have the class name `name`? */
export const hasClass = (el: Element, name: string): boolean => tokens(el, 'class').includes(name);
