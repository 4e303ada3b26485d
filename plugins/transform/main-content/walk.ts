/**
 * Iterative DOM walking helpers. Nothing here recurses, so 10k-deep markup cannot overflow the
 * stack. They walk with firstChild/nextSibling, which are O(1) on linkedom's linked-list nodes.
 * The node-level helpers the HTML document plugin uses too live in core/dom.ts.
 */
export { attr, ELEMENT, isVisible, tagOf, TEXT, visibleLength } from '../../../core/kit.ts';
import { attr, ELEMENT, walkElements } from '../../../core/kit.ts';

/**
 * Calls `visit` on the elements below `root` (not `root` itself) in document order; when it returns
 * true the element's subtree is passed over. For walks that need no list of the elements: building
 * one costs more than the walk (see core/dom-links.ts for what `visit` may change).
 */
export const walkBelow: (root: Element, visit: (el: Element) => boolean | void) => void = walkElements;

/** Elements under `root` (root included) in document order; `skip` prunes a whole subtree. */
export function elementsInOrder(root: Element, skip?: (el: Element) => boolean): Element[] {
  const out: Element[] = [root];
  // (one sweep of linkedom's document-order node list, core/dom-links.ts)
  walkElements(root, (el) => {
    if (skip?.(el)) return true;
    out.push(el);
  });
  return out;
}

/** Child elements of `el` (a fresh array, safe to mutate the DOM while iterating). */
export function childElements(el: Element): Element[] {
  const kids: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) kids.push(c as Element);
  return kids;
}

/** Is `anc` an ancestor of (or equal to) `el`? */
export function contains(anc: Element, el: Node | null): boolean {
  for (let n: Node | null = el; n; n = n.parentNode) if (n === anc) return true;
  return false;
}

export function removeNode(n: Node): void {
  n.parentNode?.removeChild(n);
}

/** Replaces an element by its children (keeps text and inline markup). */
export function unwrap(el: Element): void {
  const parent = el.parentNode;
  if (!parent) return;
  while (el.firstChild) parent.insertBefore(el.firstChild, el);
  parent.removeChild(el);
}

/** The first word of the element's class: what its like items (cards, rows, sections) share. */
export function firstClass(el: Element): string {
  const m = /\S+/.exec(attr(el, 'class') ?? '');
  return m ? m[0] : '';
}

/** An element's text with whitespace runs collapsed to one space, trimmed. */
export function flatText(el: Element | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * `fn`, remembered per string: what a class name says is asked of every element that carries it,
 * and a page repeats its class names over and over. Bounded: a hostile page can make every one unique.
 */
export function perString<T>(fn: (s: string) => T, max = 20_000): (s: string) => T {
  const known = new Map<string, T>();
  return (s) => {
    let v = known.get(s);
    if (v === undefined) {
      v = fn(s);
      if (known.size >= max) known.clear();
      known.set(s, v);
    }
    return v;
  };
}

/** Function words that show an id is a phrase (a heading's anchor), not a component name. */
const PHRASE_WORD = /^(?:the|and|with|without|of|for|into|how|what|why|when|is|are|does|your|you|our|my)$/;

/**
 * The element's id, or null when it is a heading's anchor slug ("sharing-with-multiple-developers"):
 * those words are the section's title, and say nothing about what kind of block it is.
 */
export function componentId(el: Element): string | null {
  const id = attr(el, 'id');
  if (!id || id.length < 12) return id;
  const words = id.toLowerCase().split(/[-_]+/);
  return words.length >= 3 && words.some((w) => PHRASE_WORD.test(w)) ? null : id;
}

/** A CMS's post markers (WordPress's post_class and body_class: "hentry", "type-post", "post-123", "postid-123" …). */
const POST_MARKER = /(?:^|\s)(?:hentry|type-post|entry-type-post|status-publish|postid-\d+|post-\d+|node-\d+)(?:\s|$)/i;
/** The terms a post is filed under, as those markers list them ("category-food", "tag-cookie-recipes", "tax-android"). */
const TERM_WORD = /(?:^|\s)(?:entry-)?(?:category|tag|tax|post_tag|format|author)-\S+/gi;

/**
 * The element's class, without the words that name the post's categories and tags: on a post's
 * container they say what the post is about ("tag-cookie-recipes", "category-social-media"), not
 * what kind of block it is, and would read as a cookie banner or a share bar.
 */
export function classOf(el: Element): string | null {
  const cls = attr(el, 'class');
  return cls && POST_MARKER.test(cls) ? cls.replace(TERM_WORD, ' ') : cls;
}

/** `class` and `id` joined, lower-cased: what the class/id heuristics look at. */
export function classAndId(el: Element): string {
  if (!el.hasAttributes()) return '';
  const cls = classOf(el);
  const id = componentId(el);
  return cls && id ? `${cls} ${id}`.toLowerCase() : (cls ?? id ?? '').toLowerCase();
}
