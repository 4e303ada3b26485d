/**
 * Listings the HTML parse broke apart. A directory page that wraps each item's `<div>` in a `<p>`,
 * or copies an item's description with stray `</div>`s in it, is split by the standard parse
 * (as browsers do it): the `<p>` closes at the `<div>`, a stray end tag closes the list's
 * container, and the items after that point land as siblings of the container, or of its
 * ancestors, often with empty `<p>`s between them. Scoring picks the block holding the first
 * items; the rest are lost. Items of the kind the pick repeats (same tag and class) right after
 * it, level after level as each broken container ends, are the list going on.
 * A well-formed page keeps its items inside their list: an article's paragraphs do not reappear
 * as siblings of the article, and a related-links list holds its items in a box of its own. Items
 * must also carry links as the pick's do (link rows are not a story's paragraphs), and a heading
 * of a kind the list has none of ("Related stories", "Comments") ends the run.
 */
import type { Pass } from './pass-settings.ts';
import { CONDITIONAL, dropReason, LISTING_DENSITY } from './conditional.ts';
import { linkDensity, type StatsMap } from './scoring.ts';
import { HEADINGS } from './tags.ts';
import { attr, tagOf } from './walk.ts';

/** Items of one kind the pick must hold to be a list … */
const OWN_ITEMS = 3;
/** … (or its child holding this share of its text, this many levels down: a list under its heading) … */
const LIST_SHARE = 0.5;
const LIST_DEPTH = 2;
/** … and items of that kind after it to be continued. */
const MORE_ITEMS = 2;
/** An item's link density differs from that of the pick's items by at most this (link rows are not a story's paragraphs). */
const DENSITY_DIFF = 0.5;
/** At most this many other elements between two items (an item's description, empty `<p>`s, embeds). */
const MAX_GAP = 10;
/** Ancestors climbed: each is a container a stray end tag closed early. */
const MAX_LEVELS = 4;

/** `parts` with the pick's list continued after it (document order); unchanged when it does not go on. */
export function continuedList(parts: Element[], best: Element, root: Element, stats: StatsMap, pass: Pass, spread: boolean): Element[] {
  if (best === root) return parts;
  const list = pickItems(best, stats);
  if (!list) return parts;
  const have = new Set(parts);
  const added: Element[] = [];
  // elements since the last item, and the kinds seen between items (what may close the last one)
  let pending: Element[] = [];
  const between = new Set<string>();
  let items = 0;
  let last: Element | null = null;
  let el = best;
  let stopped = false;
  for (let level = 0; level < MAX_LEVELS && !stopped && el !== root; level++) {
    const parent = el.parentNode as Element | null;
    if (!parent) break;
    for (let c = el.nextElementSibling; c && !stopped; c = c.nextElementSibling) {
      const kind = kindOf(c);
      if (isItem(c, kind, list, stats)) {
        for (const p of pending) between.add(kindOf(p));
        added.push(...pending, c);
        pending = [];
        items++;
        last = c;
      } else {
        // (a heading the list has none of opens another section: "Related stories", "Comments")
        stopped = (HEADINGS.has(tagOf(c)) && !list.beside.has(kind)) || pending.push(c) > MAX_GAP;
      }
    }
    // (a container the run did not stop in ended early: its parent's next siblings go on with the list,
    // unless it is the search root)
    if (parent === root) break;
    el = parent;
  }
  if (items < MORE_ITEMS || !last) return parts;
  // the last item's own tail: the elements after it of the kinds seen between items
  for (const p of pending) {
    if (!between.has(kindOf(p))) break;
    added.push(p);
  }
  // (the pick's own siblings among them stay where they are: parts are kept in document order)
  const at = parts.indexOf(best);
  if (at < 0) return parts;
  const out = parts.slice(0, at + 1);
  // (the gathered items are cleaned as the pick's own are: a link-only title row goes, unless the pick is a list of links)
  const own = stats.get(best);
  const linky = spread || (!!own && linkDensity(own) > LISTING_DENSITY);
  for (const a of added) if (have.has(a) || kept(a, stats, pass, linky, spread)) out.push(a);
  const taken = new Set(out);
  for (const p of parts) if (!taken.has(p)) out.push(p);
  return out;
}

/**
 * An element of one of the pick's item kinds, with text (an empty one is a placeholder the layout
 * repeats) and links as the pick's have them.
 */
function isItem(el: Element, kind: string, list: Items, stats: StatsMap): boolean {
  const density = list.density.get(kind);
  const s = stats.get(el);
  return density !== undefined && !!s?.text && Math.abs(linkDensity(s) - density) <= DENSITY_DIFF;
}

function kept(el: Element, stats: StatsMap, pass: Pass, linky: boolean, spread: boolean): boolean {
  if (!stats.get(el)?.text || pass.dropped.has(el)) return false;
  if (!pass.clean || !CONDITIONAL.has(tagOf(el))) return true;
  const why = dropReason(el, stats, pass, linky, spread);
  return !why || why === 'prose';
}

/** The pick's items: their kinds (tag and class) with the link density they have there, and the other kinds beside them. */
interface Items {
  density: Map<string, number>;
  beside: Set<string>;
}

/**
 * The pick's items: the kinds its children repeat, else those of the child holding most of its
 * text (a list under its heading), a level or two down.
 */
function pickItems(best: Element, stats: StatsMap): Items | null {
  let el: Element | null = best;
  for (let depth = 0; el && depth <= LIST_DEPTH; depth++) {
    const seen = new Map<string, { n: number; link: number; text: number }>();
    let main: Element | null = null;
    let mainText = 0;
    for (let c: Element | null = el.firstElementChild; c; c = c.nextElementSibling) {
      const s = stats.get(c);
      const text = s?.text ?? 0;
      if (text > mainText) {
        main = c;
        mainText = text;
      }
      const kind = kindOf(c);
      const k = seen.get(kind) ?? { n: 0, link: 0, text: 0 };
      k.n++;
      k.link += s?.link ?? 0;
      k.text += text;
      seen.set(kind, k);
    }
    const density = new Map<string, number>();
    // (classless blocks, bare paragraphs, say nothing about being items)
    for (const [kind, k] of seen) if (k.n >= OWN_ITEMS && !kind.endsWith('.')) density.set(kind, k.text ? k.link / k.text : 0);
    if (density.size) return { density, beside: new Set(seen.keys()) };
    el = mainText >= (stats.get(el)?.text ?? 0) * LIST_SHARE ? main : null;
  }
  return null;
}

/** Tag and whole class: a site's blocks often share a first class word ("comp", "block"), its items the whole class. */
function kindOf(el: Element): string {
  return `${tagOf(el)}.${(attr(el, 'class') ?? '').trim().replace(/\s+/g, ' ')}`;
}
