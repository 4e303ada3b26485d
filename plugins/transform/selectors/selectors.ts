/**
 * Selectors transform: applies the request's `excludeSelectors` (matches are removed) and then
 * its `includeSelectors` (the content becomes the matches, in document order). Every selector
 * is checked before anything is fetched (`validate`), so a typo is a 400 naming the field as the
 * caller's wire format calls it, not a half-edited page.
 */
import { definePlugin, type FieldNamer } from '../../../core/plugin.ts';
import type { PageDocument } from '../../../core/document.ts';
import type { Job } from '../../../core/job.ts';
import { TrawlError } from '../../../core/errors.ts';
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

/** The 400 message for the first selector that does not parse, with the field named by `name`; null when all parse. */
export function selectorProblem(job: Job, name: FieldNamer): string | null {
  try {
    validateSelectors(name('excludeSelectors'), job.request.excludeSelectors);
    validateSelectors(name('includeSelectors'), job.request.includeSelectors);
    return null;
  } catch (err) {
    if (err instanceof TrawlError) return err.message;
    throw err;
  }
}

export function applySelectors(doc: PageDocument): void {
  const { includeSelectors: include, excludeSelectors: exclude } = doc.job.request;
  const root = doc.root;
  if (!root || (!include?.length && !exclude?.length)) return;
  // Already checked by `validate` on the scrape path; this guards a pipeline run without it.
  validateSelectors('excludeSelectors', exclude);
  validateSelectors('includeSelectors', include);
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
  setup: () => ({ validate: selectorProblem, apply: applySelectors }),
});
