/**
 * An article's FAQ section: many articles end with "Frequently asked questions", an accordion
 * of question and answer pairs that the site's template places beside the body rather than inside
 * it. Each answer is short and the questions are headings or list items, so the section scores
 * below the sibling rule, yet it is part of what the page says. A block named as an FAQ, near the
 * chosen content and not left out as boilerplate, is added to it.
 */
import type { Pass } from './pass-settings.ts';
import type { StatsMap } from './scoring.ts';
import { classAndId, walkBelow, tagOf } from './walk.ts';

/** How far above the content the FAQ and the content may meet. */
const FAQ_DEPTH = 3;
/** Text an FAQ block must have (a lone "FAQ" link or label is not one). */
const FAQ_MIN = 200;
/** A block this link-dense is a list of links to FAQ pages, not the questions answered. */
const FAQ_LINKS = 0.3;

const FAQ_WORD = /^faqs?$/;

/** One question's item, not the section (an accordion's panels are often all named "faq-<n>"). */
const ITEM_TAGS = new Set(['LI', 'DD', 'DT']);

function isFaqBlock(el: Element): boolean {
  if (ITEM_TAGS.has(tagOf(el))) return false;
  const name = classAndId(el);
  return !!name && name.includes('faq') && name.split(/[^a-z]+/).some((w) => FAQ_WORD.test(w) || w.endsWith('faq') || w.startsWith('faq'));
}

/** FAQ blocks near `parts` and outside them, in document order. */
export function faqBlocks(parts: Element[], root: Element, stats: StatsMap, pass: Pass): Element[] {
  const first = parts[0];
  if (pass.product || pass.forum || !first || first === root) return [];
  let scope: Element = first;
  for (let i = 0; i < FAQ_DEPTH && scope !== root && scope.parentNode; i++) scope = scope.parentNode as Element;
  const out: Element[] = [];
  walkBelow(scope, (el) => {
    if (pass.dropped.has(el) || parts.includes(el)) return true;
    if (!isFaqBlock(el)) return false;
    if (parts.some((p) => el.contains(p))) return false;
    const s = stats.get(el);
    if (s && s.text >= FAQ_MIN && s.link <= s.text * FAQ_LINKS) out.push(el);
    return true;
  });
  return out;
}
