/**
 * Hub-like article pages: beside the story, a grid of teasers (other stories' headline links, each
 * with its blurb and dateline) holds more paragraphs than a short story and wins the scoring. On an
 * article page such a grid gives way to the story: the best candidate on the headline's side of the
 * page, after the page's headline and apart from the grid, with some paragraphs of its own.
 */
import { headlineElement } from './headline.ts';
import type { StatsMap } from './scoring.ts';
import { BLOCK } from './tags.ts';
import { tagOf, visibleLength } from './walk.ts';

/** A headline link: this many words at least. */
const HEADLINE_WORDS = 4;
/** Headline links a grid holds at least … */
const MIN_TEASERS = 4;
/** … one at least for this many of its other paragraphs (a blurb, a dateline each; a story has far more). */
const PARAS_PER_TEASER = 2;
/** Good paragraph text per headline link a grid holds at most (a blurb each; a story's paragraphs run longer). */
const BLURB = 250;
/** Share of its block's text a headline link has. */
const OWN_LINE = 0.7;
/** Paragraph text (link-poor, visible characters) the story must hold. */
const STORY_GOOD = 200;
/** Candidates looked through for the story (the grid's cards crowd the top ones). */
export const STORY_CANDIDATES = 12;

/** Is `el` a grid of teasers: many headline links, about one per paragraph of blurb, each blurb short? */
export function teaserGrid(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s) return false;
  const links = new Set<string>();
  for (const a of el.getElementsByTagName('a')) {
    const text = (a.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.split(' ').length >= HEADLINE_WORDS && visibleLength(text) >= 20 && ownLine(a, visibleLength(text), stats)) links.add(text);
  }
  // (a headline in its own heading or paragraph counts as one of the paragraphs)
  return links.size >= MIN_TEASERS && s.paras - links.size <= links.size * PARAS_PER_TEASER && s.goodText <= links.size * BLURB;
}

/** Is the link (`chars` long) most of its block's text: a headline on its own line, not a link in a sentence nor a table's cell? */
function ownLine(a: Element, chars: number, stats: StatsMap): boolean {
  for (let p = a.parentElement; p; p = p.parentElement) {
    const tag = tagOf(p);
    if (tag === 'TD' || tag === 'TH') return false;
    if (!BLOCK.has(tag)) continue;
    return chars >= (stats.get(p)?.text ?? 0) * OWN_LINE;
  }
  return false;
}

/**
 * The story beside `grid`: the first of `candidates` (best first) that neither holds the grid nor
 * sits in it, is no grid itself, holds some paragraphs, and shares with the page's headline an
 * ancestor that does not hold the grid (the headline's column). Null when there is none.
 */
export function storyBeside(
  grid: Element,
  candidates: readonly Element[],
  root: Element,
  stats: StatsMap,
  titles: readonly string[],
): Element | null {
  const headline = headlineElement(root, titles);
  if (!headline || grid.contains(headline)) return null;
  for (const el of candidates) {
    if (el.contains(grid) || grid.contains(el) || (stats.get(el)?.goodText ?? 0) < STORY_GOOD || teaserGrid(el, stats)) continue;
    if (column(headline, el, grid)) return el;
  }
  return null;
}

/** Do `headline` and `el` meet below every ancestor of `grid` (one column of the page)? */
function column(headline: Element, el: Element, grid: Element): boolean {
  for (let a: Element | null = el; a; a = a.parentNode as Element | null) {
    if (a.contains(grid)) return false;
    if (a.contains(headline)) return true;
  }
  return false;
}
