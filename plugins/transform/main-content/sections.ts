/**
 * Page-builder sections: Elementor, WordPress block themes, Shopify and other site builders lay a
 * page out as a run of sibling sections sharing one class ("elementor-element", "wp-block-group",
 * "shopify-section"), and an article's intro, body and closing words each get their own. Scoring
 * picks the section with the most prose; the others, often short, score below Readability's
 * sibling rule and sit a few wrappers above the pick, so they were lost. Like sections of prose
 * (link-poor paragraph text, not boilerplate, not a "read next" list) beside the pick, or beside
 * the wrappers that hold nothing but it, are added to the content.
 */
import { isLegalBlock } from './legal.ts';
import type { Pass } from './pass-settings.ts';
import { isRecommendHeading } from './recommend.ts';
import type { StatsMap } from './scoring.ts';
import { isReadNextHeading } from './tail.ts';
import { classAndId, firstClass, flatText, tagOf } from './walk.ts';

/** A wrapper around the pick holding at most this much more text is the same block. */
const WRAPPER_SLACK = 1.15;
/** A like section whose paragraph text differs from the pick's by at most this share is a copy of it. */
const TWIN_DIFF = 0.05;
/** A like sibling needs this much link-poor paragraph text to be a section of the content … */
const SECTION_GOOD = 80;
/** … and this much text besides its headings (a heading and a line is a call to action) … */
const SECTION_BODY = 150;
/** … or, before an article's body and holding its H1, this much (a title and a one-line summary is its headline block). */
const LEAD_BODY = 300;
/** … most of its text that (a section of headings, buttons or figures is a banner) … */
const SECTION_GOOD_SHARE = 0.6;
/** … and at most this link density (a section of teaser links is a listing of other pages). */
const SECTION_LINKS = 0.2;
/** The added sections may hold at most this much text per character of the pick (more, and the pick is the fragment). */
const SECTION_SHARE = 1;

/** A heading opening the site's small print or a reviewer credit (metadata about the page, not the page). */
const SITE_NOTE = /^(?:disclaimers?|disclosures?|legal notice|(?:article |medically )?(?:reviewed|fact[- ]checked) by)\b/i;

/** The parts with like sections around the pick added, in document order (unchanged when there are none). */
export function likeSections(parts: Element[], root: Element, stats: StatsMap, pass: Pass): Element[] {
  if (parts.length !== 1 || pass.forum || pass.product) return parts;
  const best = parts[0]!;
  const own = stats.get(best)?.text ?? 0;
  if (best === root || !own) return parts;
  // climb the wrappers that add (almost) nothing to the pick: the sections are the top one's siblings
  let top = best;
  for (let p = top.parentNode as Element | null; p && p !== root && stats.has(p); p = p.parentNode as Element | null) {
    if (stats.get(p)!.text > own * WRAPPER_SLACK) break;
    top = p;
  }
  const parent = top.parentNode as Element | null;
  const word = firstClass(top);
  if (!parent || !word) return parts;
  const tag = tagOf(top);
  const ownGood = stats.get(best)!.goodText;
  const out: Element[] = [];
  let text = 0;
  let before = true;
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
    if (c === top) {
      out.push(best);
      before = false;
      continue;
    }
    if (tagOf(c) !== tag || firstClass(c) !== word || !isProse(c, stats, pass, before && !!pass.article)) continue;
    // a copy of the pick (a mobile and a desktop version of the same text) would repeat it
    if (Math.abs(stats.get(c)!.goodText - ownGood) <= ownGood * TWIN_DIFF) continue;
    out.push(c);
    text += stats.get(c)!.text;
  }
  return out.length === 1 || text > own * SECTION_SHARE ? parts : out;
}

function isProse(el: Element, stats: StatsMap, pass: Pass, lead: boolean): boolean {
  if (pass.dropped.has(el)) return false;
  const s = stats.get(el);
  if (!s || s.goodText < SECTION_GOOD || s.goodText < s.text * SECTION_GOOD_SHARE || s.link > s.text * SECTION_LINKS) return false;
  if (s.text - s.headingText < SECTION_BODY || (lead && s.text - s.headingText < LEAD_BODY && el.querySelector('h1'))) return false;
  // an article's dated headline block is metadata (see leadin.ts); a "read next" block lists other pages
  if (pass.article && el.querySelector('time')) return false;
  // an FAQ is faq.ts's to judge; small print and a copyright line are the site's, not the page's
  const name = classAndId(el);
  if (name && (/faq/.test(name) || isLegalBlock(el))) return false;
  // (a builder often puts a section's heading in a widget of its own just before it)
  const prev = el.previousElementSibling;
  const ps = prev && stats.get(prev);
  const h = ps && ps.text > 0 && ps.headingText === ps.text ? prev : el.querySelector('h1, h2, h3, h4, h5, h6');
  const head = flatText(h);
  if (/^(?:frequently asked questions|faqs?)\b/i.test(head)) return false;
  if (head && (isRecommendHeading(head) || isReadNextHeading(head) || SITE_NOTE.test(head))) return false;
  // (a styled paragraph often stands in for the heading: the section's first line says the same)
  const line = flatText(firstLine(el, stats));
  if (line && line !== head && (isRecommendHeading(line) || isReadNextHeading(line) || SITE_NOTE.test(line))) return false;
  return !(el.textContent ?? '').includes('©');
}

/** The first block with text of its own in `el` (its first line), found by descending through wrappers. */
function firstLine(el: Element, stats: StatsMap): Element | null {
  let at: Element | null = el;
  for (let depth = 0; at && depth < 8; depth++) {
    const s = stats.get(at);
    if (!s || s.inl > 0) return at;
    let next: Element | null = null;
    for (let c: Element | null = at.firstElementChild; c && !next; c = c.nextElementSibling) if ((stats.get(c)?.text ?? 0) > 0) next = c;
    at = next;
  }
  return null;
}
