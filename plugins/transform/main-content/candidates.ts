/**
 * Picks the element that holds the main content: the best-scoring candidate (candidate-scores.ts),
 * Readability's shared-ancestor and parent-walk rules, then the qualifying siblings of the winner.
 */
import { finalScore, topCandidates } from './candidate-scores.ts';
import { STORY_CANDIDATES, storyBeside, teaserGrid } from './hub.ts';
import type { Pass } from './pass-settings.ts';
import type { StatsMap } from './scoring.ts';
import { attr, childElements, firstClass, tagOf } from './walk.ts';

/** Below this share of the page's good text the winner is a fragment … */
const SPREAD_MIN = 0.5;
/** … and is widened to the nearest ancestor holding this share. */
const SPREAD_TAKE = 0.6;
/** Blocks holding less of the page's good text than this are ignored when looking for twin copies … */
const SPREAD_BLOCK = 0.05;
/** … which differ in good text by at most this share. */
const TWIN_DIFF = 0.05;

export interface Pick {
  el: Element;
  /** Widened over many blocks (landing, service, listing pages): their sections are the content. */
  spread: boolean;
  /** The whole <main> landmark won: a landing page's sections with their pictures are the content. */
  whole: boolean;
  /** A grid of teasers that won the scoring and gave way to the story beside it: never added back. */
  avoid?: Element;
}

/** The content container (before sibling merging). `titles`: the page's titles, which name its headline. */
export function pickTop(root: Element, stats: StatsMap, pass: Pass, titles: readonly string[] = []): Pick {
  const top = topCandidates(root, stats, pass);
  if (!top.length) return { el: root, spread: false, whole: false };
  // (on an article, a grid of other stories' teasers gives way to the story beside it: hub.ts)
  const grid = pass.article && teaserGrid(top[0]!.el, stats) ? top[0]!.el : undefined;
  const story =
    grid &&
    storyBeside(
      grid,
      topCandidates(root, stats, pass, STORY_CANDIDATES).map((c) => c.el),
      root,
      stats,
      titles,
    );
  let best = story || top[0]!.el;
  const avoid = story ? grid : undefined;
  const bestScore = top[0]!.score;
  // several strong candidates under one ancestor: take the ancestor (lists of posts, split articles)
  const alts = top
    .slice(1)
    .filter((c) => c.score / bestScore >= 0.75)
    .map((c) => c.el);
  if (alts.length >= 2 && !avoid) {
    for (let a = best.parentNode as Element | null; a && a !== root.parentNode; a = a.parentNode as Element | null) {
      let inside = 0;
      for (const alt of alts) if (a.contains(alt)) inside++;
      if (inside >= 2) {
        best = a;
        break;
      }
      if (a === root) break;
    }
  }
  // (a listing's items are cleaned as links and pictures; a thread's posts, two already, are the content)
  let items = false;
  if ((stats.get(best)?.text ?? 0) < CARD_MAX || pass.forum) {
    const parent = repeatedItemParent(best, root, pass.forum ? 2 : REPEATS);
    items = parent !== best && !pass.forum;
    best = parent;
  }
  // walk up while the parent scores better
  let last = finalScore(best, stats, pass) || bestScore;
  const threshold = last / 3;
  for (
    let p = best.parentNode as Element | null;
    p && p !== root.parentNode && !p.contains(avoid ?? null);
    p = p.parentNode as Element | null
  ) {
    const ps = finalScore(p, stats, pass);
    if (ps === 0) {
      if (p === root) break;
      continue;
    }
    if (ps < threshold) break;
    if (ps > last) {
      best = p;
      break;
    }
    last = ps;
    if (p === root) break;
  }
  // content spread over many blocks (service, listing pages): widen to the ancestor holding most of
  // it, the search root included (a landing page's sections sit right under <body>)
  const all = stats.get(root)?.goodText ?? 0;
  let spread = items;
  if ((stats.get(best)?.goodText ?? 0) < all * SPREAD_MIN && !avoid) {
    for (let a = best.parentNode as Element | null; a && a !== root.parentNode; a = a.parentNode as Element | null) {
      const as = stats.get(a);
      if (as && as.goodText >= all * SPREAD_TAKE) {
        if (twinCopies(a, stats, all * SPREAD_BLOCK)) break;
        best = a;
        spread = true;
        break;
      }
    }
  }
  // an only child says nothing: widen to the parent
  while (best !== root && best.parentNode && (best.parentNode as Element).children?.length === 1) best = best.parentNode as Element;
  return { el: best, spread, whole: best === root && tagOf(root) !== 'BODY' && tagOf(root) !== 'HTML', avoid };
}

/** Items of one tag and first class word, this many side by side, are a listing's cards or rows (a thread's posts: 2). */
const REPEATS = 3;
/** A winner this short may be one card of a listing (longer ones are an article's sections). */
const CARD_MAX = 300;
/** How far above the winner to look for such an item. */
const ITEM_DEPTH = 4;

/**
 * A winner that is (or sits in) one of several like items (product tiles, result rows, a thread's
 * posts) is a fragment: the items' parent is the content.
 */
function repeatedItemParent(best: Element, root: Element, repeats: number): Element {
  let el = best;
  for (let depth = 0; depth < ITEM_DEPTH && el !== root; depth++) {
    const parent = el.parentNode as Element | null;
    if (!parent) break;
    const word = firstClass(el);
    if (word) {
      const tag = tagOf(el);
      let like = 0;
      for (let c = parent.firstElementChild; c && like < repeats; c = c.nextElementSibling)
        if (tagOf(c) === tag && firstClass(c) === word) like++;
      if (like >= repeats) return parent;
    }
    el = parent;
  }
  return best;
}

/**
 * Are the blocks under `el` two copies of the same content (a gated and an open version, a mobile
 * and a desktop one)? Spreading over both would repeat the text: the copy holding the winner is kept.
 */
function twinCopies(el: Element, stats: StatsMap, min: number): boolean {
  let a = 0;
  let b = 0;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    const good = stats.get(c)?.goodText ?? 0;
    if (good < min) continue;
    if (b) return false;
    if (a) b = good;
    else a = good;
  }
  return b > 0 && Math.abs(a - b) <= Math.max(a, b) * TWIN_DIFF;
}

/** The winner's siblings that also look like content (Readability's sibling rule). */
export function contentSiblings(best: Element, root: Element, stats: StatsMap, pass: Pass, avoid?: Element): Element[] {
  const parent = best.parentNode as Element | null;
  if (!parent || best === root) return [best];
  const bestScore = finalScore(best, stats, pass);
  const threshold = Math.max(10, bestScore * 0.2);
  const cls = attr(best, 'class') ?? '';
  const out: Element[] = [];
  for (const sib of childElements(parent)) {
    if (sib === best) {
      out.push(sib);
      continue;
    }
    const s = stats.get(sib);
    if (!s || (avoid && sib.contains(avoid))) continue;
    const bonus = cls && attr(sib, 'class') === cls ? bestScore * 0.2 : 0;
    if (finalScore(sib, stats, pass) + bonus >= threshold) {
      // (on an article, a grid of other stories' teasers beside it is the site's, unless classed as the pick is: hub.ts)
      if (!pass.article || bonus || !teaserGrid(sib, stats)) out.push(sib);
      continue;
    }
    if (tagOf(sib) === 'P' || (s.inl > 0 && s.inl === s.text)) {
      const density = s.text ? s.link / s.text : 0;
      const text = s.text;
      if ((text > 80 && density < 0.25) || (text > 0 && text <= 80 && density === 0 && /\.( |$)/.test(sib.textContent ?? '')))
        out.push(sib);
    }
  }
  return out;
}
