/**
 * Which hidden elements are the page after all. Hidden parts are dropped before scoring, but some
 * pages hide their own body until a script runs: a wrapper around most of the page (aria-hidden
 * behind a modal, a pre-JS "hidden" class), or, on a page whose visible part is an empty shell,
 * the deferred block that holds the product or article (a "defer-block" display:none wrapper).
 */
import { JUNK } from './tags.ts';
import { elementsInOrder, tagOf, TEXT, visibleLength } from './walk.ts';

/** Hidden text (characters) below which a hidden element is never the page. */
const MIN_TEXT = 500;
/** Share of the page's text that a hidden wrapper must hold to be the page. */
const WRAPPER_SHARE = 0.4;
/** Visible text (characters) below which a page is an empty shell around hidden content. */
const SHELL = 500;
/** A hidden list is data (key-value pairs, an author list), not the page. */
const LISTS = new Set(['UL', 'OL', 'DL']);

/**
 * The hidden elements (outermost ones of one scan) to keep and search. `pageText` gives the
 * page's visible length as first measured (with its hidden parts). Only at the top of the page is
 * the empty-shell case considered: inside a kept wrapper, the wrapper's own hidden parts are hidden.
 */
export function hiddenToKeep(hidden: Element[], atRoot: boolean, pageText: () => number): Set<Element> {
  const keep = new Set<Element>();
  // (measured without scripts and styles: a hidden footer can carry kilobytes of inline script)
  const lens = hidden.map((el) => textLength(el, false));
  if (!lens.some((n) => n > MIN_TEXT)) return keep;
  const total = pageText();
  hidden.forEach((el, i) => {
    if (lens[i]! > MIN_TEXT && lens[i]! > total * WRAPPER_SHARE && !LISTS.has(tagOf(el))) keep.add(el);
  });
  if (!atRoot || keep.size) return keep;
  let shown = total;
  for (const n of lens) shown -= n;
  if (shown >= SHELL) return keep;
  const best = mostProse(hidden.filter((el, i) => lens[i]! > MIN_TEXT && !LISTS.has(tagOf(el))));
  if (best) keep.add(best);
  return keep;
}

/**
 * The element with the most prose: text outside links (the page's body, not a mega menu or a
 * footer's link columns).
 */
function mostProse(els: Element[]): Element | null {
  let best: Element | null = null;
  let most = 0;
  for (const el of els) {
    const prose = textLength(el, true);
    if (prose > most) {
      most = prose;
      best = el;
    }
  }
  return best;
}

/** Visible text under `el` outside scripts, styles and other junk (and outside links if `skipLinks`). */
export function textLength(el: Element, skipLinks: boolean): number {
  let n = 0;
  for (const e of elementsInOrder(el, (x) => JUNK.has(tagOf(x)) || (skipLinks && tagOf(x) === 'A'))) {
    for (let c = e.firstChild; c; c = c.nextSibling) if (c.nodeType === TEXT) n += visibleLength(c.nodeValue ?? '');
  }
  return n;
}
