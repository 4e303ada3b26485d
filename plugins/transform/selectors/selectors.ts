/**
 * Selectors transform: applies the request's `excludeSelectors` (matches are removed) and then
 * its `includeSelectors` (the content becomes the matches, in document order; a selected cell or
 * row keeps a table around it). Every selector
 * is checked before anything is fetched (`validate`), so a typo is a 400 naming the field as the
 * caller's wire format calls it, not a half-edited page.
 */
import { definePlugin, TrawlError, validateSelectors, withinLimitSync } from '../../../core/kit.ts';
import type { FieldNamer, Job, PageDocument } from '../../../core/kit.ts';

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

const CELLS = new Set(['TD', 'TH']);
const SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT', 'CAPTION', 'COLGROUP']);

/**
 * Appends a copy of `match` to `container`, inside the table structure it needs: a cell or row
 * outside a table is no table at all to the formats (markdown drops it), so a selected `td` would
 * read as empty. Consecutive cells of one row share one row again, consecutive rows one table.
 */
function appendInTable(container: Element, match: Element): void {
  const make = (tag: string) => container.ownerDocument.createElement(tag);
  const copy = match.cloneNode(true);
  const tag = match.tagName.toUpperCase();
  const isCell = CELLS.has(tag);
  if (!isCell && tag !== 'TR' && !SECTIONS.has(tag)) {
    container.appendChild(copy);
    return;
  }
  // What the copy joins when the previous match came from the same place: its row, or its rows' section.
  const source = isCell || tag === 'TR' ? match.parentElement : null;
  const last = container.lastElementChild as (Element & { source?: Element | null; tag?: string }) | null;
  if (source && last?.tagName.toUpperCase() === 'TABLE' && last.source === source && last.tag === tag) {
    (isCell ? last.querySelector('tr:last-child')! : last.querySelector('tbody')!).appendChild(copy);
    return;
  }
  const table = Object.assign(make('table'), { source, tag });
  if (SECTIONS.has(tag)) table.appendChild(copy);
  else {
    const body = table.appendChild(make('tbody'));
    body.appendChild(isCell ? make('tr') : copy);
    if (isCell) body.firstElementChild!.appendChild(copy);
  }
  container.appendChild(table);
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

/**
 * Matching runs under its own CPU budget (`scrape.selectorBudgetMs`, far below the scrape's
 * timeout): in a content worker the pool stops and replaces a worker still matching at the limit,
 * so one costly selector holds a worker for seconds, not for the whole scrape.
 */
export function applySelectors(doc: PageDocument, budgetMs: number): void {
  const { includeSelectors: include, excludeSelectors: exclude } = doc.job.request;
  const root = doc.root;
  if (!root || (!include?.length && !exclude?.length)) return;
  // Already checked by `validate` on the scrape path; this guards a pipeline run without it.
  validateSelectors('excludeSelectors', exclude);
  validateSelectors('includeSelectors', include);
  const named = [...(exclude ?? []), ...(include ?? [])].map((s) => `"${s}"`).join(', ');
  const matches = withinLimitSync(
    {
      timeoutMs: budgetMs,
      timeoutError: new TrawlError(
        'unprocessable',
        `Matching the selectors ${named} took longer than ${budgetMs} ms (scrape.selectorBudgetMs)`,
      ),
      crashError: new TrawlError('unprocessable', `Matching the selectors ${named} {reason}`),
    },
    () => {
      if (exclude?.length) excludeMatches(root, exclude);
      return include?.length ? includedMatches(root, include) : null;
    },
  );
  if (!matches) return;
  // A detached container keeps doc.dom whole for formats that read the full page (links).
  const container = root.ownerDocument.createElement('div');
  for (const match of matches) appendInTable(container, match);
  doc.root = container;
  if (matches.length === 0) doc.warn('transform', 'transform.selectors', 'include_selectors matched nothing; the content is empty');
}

export const selectorsTransform = definePlugin({
  kind: 'transform',
  name: 'selectors',
  description: 'Removes elements matching exclude_selectors, then keeps only elements matching include_selectors.',
  order: 'pre',
  setup: (_options, ctx) => ({ validate: selectorProblem, apply: (doc) => applySelectors(doc, ctx.config.scrape.selectorBudgetMs) }),
});
