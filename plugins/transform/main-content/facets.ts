/**
 * A listing's controls by their words: sort menus, filter toggles, result counts ("22 products",
 * "1 - 12 of 27 Products"), "load more" buttons and "Loading…" placeholders around a grid of
 * products or search results. They are what a shopper clicks, not what the page lists, and they
 * often sit in unnamed flex boxes that no class rule can see.
 */
import type { StatsMap } from './scoring.ts';
import { attr, flatText } from './walk.ts';

// Names the common platforms give them: Shopify's "facets" and "facet-filters", BigCommerce's
// "facetedSearch", Magento's "toolbar-sorter", "toolbar-amount" and layered navigation,
// WooCommerce's "woocommerce-ordering" and "woocommerce-result-count", Algolia's InstantSearch
// widgets ("ais-RefinementList", "ais-SortBy", "ais-Stats", "ais-HitsPerPage").
const CONTROL =
  /facet|refinement|sort-?by|sort_by|sorter|orderby|load-?more|result-?count|results-?count|products?-?count|layered-?nav|toolbar-amount|woocommerce-ordering|hitsperpage|ais-stats|ais-clear|ais-pagination/;
/** Whole parts of a class word (split at '-' and '_') that name a filter or sort control. */
const CONTROL_PARTS = new Set(['filter', 'filters', 'sort', 'sorting']);
/** Share of prose above which a block named as controls holds more (the item cards themselves). */
const CONTROL_PROSE = 0.25;

/**
 * A block whose class names it a filter, facet, sort, count or load-more control. Read from the
 * class only: an id such as "sorting" or "filters" is as often a documentation section's anchor.
 */
export function isNamedControl(el: Element, stats: StatsMap): boolean {
  // (and a tooltip, shown on hover over a control: the small print of "results, with ads"; not an
  // element that points to a description itself, which is the trigger however its role reads)
  if (attr(el, 'role') === 'tooltip' && attr(el, 'aria-describedby') === null) return true;
  const cls = attr(el, 'class');
  if (!cls || !namesControl(cls.toLowerCase())) return false;
  const s = stats.get(el);
  return !!s && s.goodText <= s.text * CONTROL_PROSE;
}

function namesControl(cls: string): boolean {
  if (CONTROL.test(cls)) return true;
  for (const word of cls.split(/\s+/)) {
    if (word.length < 4) continue;
    for (const part of word.split(/[-_]+/)) if (CONTROL_PARTS.has(part)) return true;
  }
  return false;
}

/** Longest text (visible characters) a control's label or a result count runs to. */
const LABEL_TEXT = 40;
/** Labels of the controls ("Sort by:", "Filter & Sort", "Clear all", "Load more", "Loading…"). */
const CONTROL_LABEL =
  /^(?:sort(?: by)?|sort(?: by)?\s*:.{1,25}|(?:filter|sort) (?:&|and) (?:filter|sort)|filters?|filter by|refine(?: by| results)?|clear(?: all| filters)?|show|view|items per page|per page|load more|show more results|loading(?:\.*|…))\s*[:|]?$/;
/** Result counts ("22 products", "1 – 12 of 27 Products", "( 8 results )", "Showing 1–24 of 120 results"). */
const RESULT_COUNT =
  /^\(?\s*(?:showing\s+)?(?:\d[\d,.]*\s*(?:-|–|to)\s*)?\d[\d,.]*\s*(?:of\s+\d[\d,.]*\s*)?(?:results?|products?|items?|entries|listings)\s*(?:found)?\s*\)?$/;

/** Boxes a control's label stands in by itself (a word in a sentence, "On the View menu", is not one). */
const LABEL_BOXES = new Set(['DIV', 'P', 'LI', 'LABEL', 'BUTTON', 'LEGEND', 'SECTION', 'HEADER', 'FORM', 'FIELDSET']);

/** A small block (by itself in its parent, never a heading) whose text is a control's label or a result count. */
export function isControlBlock(el: Element, tag: string, stats: StatsMap): boolean {
  // (a heading "Filters" may head an article's section about them)
  if (/^H[1-6]$/.test(tag)) return false;
  const own = stats.get(el)?.text ?? Infinity;
  if (own > LABEL_TEXT || !(LABEL_BOXES.has(tag) || own >= (stats.get(el.parentNode as Element)?.text ?? Infinity))) return false;
  return isControlLabel(flatText(el));
}

/**
 * Is this short text a listing control's label or a result count? Asked of small elements inside
 * a listing's content whose class says nothing (unnamed flex boxes around a sort menu).
 */
export function isControlLabel(text: string): boolean {
  if (!text || text.length > LABEL_TEXT) return false;
  const t = text.toLowerCase();
  return CONTROL_LABEL.test(t) || RESULT_COUNT.test(t);
}
