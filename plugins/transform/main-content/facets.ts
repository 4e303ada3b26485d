/**
 * A listing's controls by their words: sort menus, filter toggles, result counts ("22 products",
 * "1 - 12 of 27 Products"), "load more" buttons and "Loading…" placeholders around a grid of
 * products or search results. They are what a shopper clicks, not what the page lists, and they
 * often sit in unnamed flex boxes that no class rule can see.
 */
import type { StatsMap } from './scoring.ts';

/** Longest text (visible characters) a control's label or a result count runs to. */
const LABEL_TEXT = 40;
/** Labels of the controls ("Sort by:", "Filter & Sort", "Clear all", "Load more", "Loading…"). */
const CONTROL_LABEL = /^(?:sort(?: by)?|sort(?: by)?\s*:.{1,25}|(?:filter|sort) (?:&|and) (?:filter|sort)|filters?|filter by|refine(?: by| results)?|clear(?: all| filters)?|show|view|items per page|per page|load more|show more results|loading(?:\.*|…))\s*[:|]?$/;
/** Result counts ("22 products", "1 – 12 of 27 Products", "( 8 results )", "Showing 1–24 of 120 results"). */
const RESULT_COUNT = /^\(?\s*(?:showing\s+)?(?:\d[\d,.]*\s*(?:-|–|to)\s*)?\d[\d,.]*\s*(?:of\s+\d[\d,.]*\s*)?(?:results?|products?|items?|entries|listings)\s*(?:found)?\s*\)?$/;

/** Boxes a control's label stands in by itself (a word in a sentence, "On the View menu", is not one). */
const LABEL_BOXES = new Set(['DIV', 'P', 'LI', 'LABEL', 'BUTTON', 'LEGEND', 'SECTION', 'HEADER', 'FORM', 'FIELDSET']);

/** A small block (by itself in its parent, never a heading) whose text is a control's label or a result count. */
export function isControlBlock(el: Element, tag: string, stats: StatsMap): boolean {
  // (a heading "Filters" may head an article's section about them)
  if (/^H[1-6]$/.test(tag)) return false;
  const own = stats.get(el)?.text ?? Infinity;
  if (own > LABEL_TEXT || !(LABEL_BOXES.has(tag) || own >= (stats.get(el.parentNode as Element)?.text ?? Infinity))) return false;
  return isControlLabel((el.textContent ?? '').replace(/\s+/g, ' ').trim());
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
