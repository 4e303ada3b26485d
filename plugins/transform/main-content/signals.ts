/**
 * What the extraction learnt about a page, gathered for its page type and content confidence
 * (page-type.ts, confidence.ts): how the page was recognised, the whole page's measure, the kept
 * content's measure and how hard the cascade had to look for it. With only_main_content off the
 * extractor does not run; `pageSignals` then measures the page alone, in one read-only walk.
 */
import type { PassResult } from './pass.ts';
import { linkDensity, measure, newStats, type Stats, type StatsMap } from './scoring.ts';
import { isForumPage, postKind } from './forum.ts';
import { isProductPage, looksLikeProduct } from './product.ts';
import { attr, tagOf } from './walk.ts';

export interface PageSignals {
  /** Recognised before extraction (forum.ts, product.ts). */
  forum: boolean;
  product: boolean;
  /** The whole page (after junk and hidden elements went). */
  page: Stats;
  /** The kept content's parts, summed; null when nothing was extracted (only_main_content off). */
  content: Stats | null;
  /** With nothing extracted: the block the content most likely is (see likelyContent). */
  likely?: Stats | null;
  /** Visible characters returned (after in-content cleaning). */
  text: number;
  /** The cascade's winning pass: 0 the strict one, higher ever looser (see cascade.ts). */
  rung: number;
  /** The page's description stood in for a content too short (a client-rendered page). */
  described: boolean;
}

/** Sums the measures of `parts` (disjoint subtrees). */
function sumStats(parts: readonly Element[], result: PassResult): Stats {
  const sum = newStats();
  for (const p of parts) {
    const s = result.stats.get(p);
    if (!s) continue;
    for (const key of Object.keys(sum) as Array<keyof Stats>) sum[key] += s[key];
  }
  return sum;
}

/** The signals of an extraction, from the page kinds it was run with and the cascade's result. */
export function extractionSignals(kind: { forum: boolean; product: boolean }, result: PassResult): PageSignals {
  const content = sumStats(result.parts, result);
  return {
    forum: kind.forum,
    product: kind.product,
    page: result.page ?? content,
    content,
    text: result.text,
    rung: result.rung ?? 0,
    described: false,
  };
}

/**
 * The signals of a page nobody extracted from: the page kinds (as the extraction's scan and tests
 * tell them), the whole page's measure and its likely content block. It reads and changes nothing
 * (the page is returned whole); `page` gives the head's hints.
 */
export function pageSignals(root: Element, page: Document, url?: string): PageSignals {
  const stats = measure(root);
  let posts = 0;
  let products = 0;
  let lastPost: Element | null = null;
  // (the measure lists every element in document order, the head left out: no second walk)
  for (const el of stats.keys()) {
    if (!el.hasAttributes()) continue;
    const tag = tagOf(el);
    const cls = attr(el, 'class');
    // (a post's body inside its container is the same post, as the extraction's scan counts them)
    if (postKind(el, tag, cls) === 'post' && !lastPost?.contains(el)) {
      posts++;
      lastPost = el;
    }
    if (!products && looksLikeProduct(el, tag, cls)) products++;
  }
  const forum = isForumPage(page, posts, url);
  const product = !forum && isProductPage(page, products);
  const whole = stats.get(root) ?? newStats();
  return { forum, product, page: whole, content: null, likely: likelyContent(stats), text: whole.text, rung: 0, described: false };
}

/**
 * The block Readability's scoring alone would start from (paragraph points less link density, no
 * class weights, no cascade): where the page's content most likely is, to weigh it against the page.
 */
function likelyContent(stats: StatsMap): Stats | null {
  let best: Stats | null = null;
  let bestScore = 0;
  for (const s of stats.values()) {
    const score = s.score * (1 - linkDensity(s));
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}
