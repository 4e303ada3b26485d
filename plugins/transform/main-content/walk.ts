/**
 * Iterative DOM walking helpers. Nothing here recurses, so 10k-deep markup cannot overflow the
 * stack. They walk with firstChild/nextSibling, which are O(1) on linkedom's linked-list nodes.
 */

export const ELEMENT = 1;
export const TEXT = 3;

/** Elements under `root` (root included) in document order; `skip` prunes a whole subtree. */
export function elementsInOrder(root: Element, skip?: (el: Element) => boolean): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (skip && el !== root && skip(el)) continue;
    out.push(el);
    // push children in reverse so the first child is visited first
    const kids: Element[] = [];
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) kids.push(c as Element);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}

/** Child elements of `el` (a fresh array, safe to mutate the DOM while iterating). */
export function childElements(el: Element): Element[] {
  const kids: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) kids.push(c as Element);
  return kids;
}

/** Number of non-whitespace characters of a string. */
export function visibleLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 160 && c !== 0x200b && c !== 0xfeff) n++;
  }
  return n;
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

export function tagOf(el: Element): string {
  return el.tagName.toUpperCase();
}

/**
 * Raw attribute value, or null. On linkedom, `getAttribute` HTML-escapes the value on every call
 * and dominates the hot loops; the attribute node's value is the same text, unescaped.
 */
export function attr(el: Element, name: string): string | null {
  if (!el.hasAttributes()) return null;
  return el.getAttributeNode(name)?.value ?? null;
}

/** `class` and `id` joined, lower-cased: what the class/id heuristics look at. */
export function classAndId(el: Element): string {
  if (!el.hasAttributes()) return '';
  const cls = attr(el, 'class');
  const id = attr(el, 'id');
  return cls && id ? `${cls} ${id}`.toLowerCase() : (cls ?? id ?? '').toLowerCase();
}
