/**
 * Selectors transform: applies the request's `exclude_selectors` (matches are removed) and then
 * its `include_selectors` (the content becomes the matches, in document order). Every selector
 * is checked before the page is touched, so a typo is a 400 naming the field, not a half-edited
 * page.
 */
import { definePlugin } from '../../../core/plugin.ts';
import type { PageDocument } from '../../../core/document.ts';
import { validateSelectors } from '../../../core/selectors.ts';

export function excludeMatches(root: Element, selectors: readonly string[]): void {
  for (const el of root.querySelectorAll(selectors.join(', '))) el.remove();
}

/**
 * The matches of all selectors, in document order (a selector list query returns them so),
 * without those inside another match: the outer one already carries them.
 */
export function includedMatches(root: Element, selectors: readonly string[]): Element[] {
  const matches = [...root.querySelectorAll(selectors.join(', '))];
  const chosen = new Set(matches);
  return matches.filter((el) => {
    for (let parent = el.parentElement; parent && parent !== root; parent = parent.parentElement) {
      if (chosen.has(parent)) return false;
    }
    return true;
  });
}

export function applySelectors(doc: PageDocument): void {
  const { include_selectors: include, exclude_selectors: exclude } = doc.job.options;
  const root = doc.root;
  if (!root || (!include?.length && !exclude?.length)) return;
  validateSelectors('exclude_selectors', exclude, root);
  validateSelectors('include_selectors', include, root);
  if (exclude?.length) excludeMatches(root, exclude);
  if (!include?.length) return;
  const matches = includedMatches(root, include);
  // A detached container keeps doc.dom whole for formats that read the full page (links).
  const container = root.ownerDocument.createElement('div');
  for (const match of matches) container.appendChild(match.cloneNode(true));
  doc.root = container;
  if (matches.length === 0) doc.warn('transform', 'transform.selectors', 'include_selectors matched nothing; the content is empty');
}

export const selectorsTransform = definePlugin({
  kind: 'transform',
  name: 'selectors',
  description: 'Removes elements matching exclude_selectors, then keeps only elements matching include_selectors.',
  order: 'pre',
  setup: () => ({ apply: applySelectors }),
});
