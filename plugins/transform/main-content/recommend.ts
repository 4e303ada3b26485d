/**
 * Recommendation blocks ("Customers also bought", "Similar items", "Products related to this
 * item" …): shops put them right inside the product's content, under a heading that says what
 * they are, with no class word to tell them apart. The heading names the block; the block is the
 * heading's widest ancestor holding no other heading.
 */
import type { StatsMap } from './scoring.ts';
import { flatText } from './walk.ts';

const RECOMMEND =
  /^(?:frequently bought together|(?:customers|people) (?:who (?:bought|viewed) this(?: item)? )?also (?:bought|viewed|liked|searched)|(?:products|items) related to this|related (?:products|items|searches|books)|similar (?:items|products|brands)|you (?:may|might) also (?:like|love|be interested)|recommended (?:for you|accessories|products|items)|sponsored products|recently viewed|more (?:items )?from this (?:seller|brand|shop|store)|explore related|compare with similar)/i;

/** Share of the part a recommendation block may hold at most (more, and it is the content). */
const MAX_SHARE = 0.4;

/** Does a heading's text name a recommendation block? */
export function isRecommendHeading(text: string): boolean {
  return text.length <= 80 && RECOMMEND.test(text);
}

/** The recommendation block a heading opens, or null. */
export function recommendationBlock(heading: Element, part: Element, stats: StatsMap): Element | null {
  const text = flatText(heading);
  if (!isRecommendHeading(text)) return null;
  const limit = (stats.get(part)?.text ?? 0) * MAX_SHARE;
  let block: Element = heading;
  for (let a = heading.parentNode as Element | null; a && a !== part; a = a.parentNode as Element | null) {
    const s = stats.get(a);
    if (!s || s.headings > 1 || s.text > limit) break;
    block = a;
  }
  return block === heading ? null : block;
}
