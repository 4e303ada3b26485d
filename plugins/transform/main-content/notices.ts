/**
 * Affiliate disclosures: the short paragraph a blog or review site puts above or below a post
 * ("This post may contain affiliate links…", "We may earn a commission when you buy through links
 * on this page"). It is a legal notice about the site, not part of what the post says, and it sits
 * inside the post's own container, so no class or position gives it away: only its wording does.
 * The wording must be the site speaking of itself, so a post about affiliate marketing is safe.
 */
import type { StatsMap } from './scoring.ts';
import { elementsInOrder, tagOf } from './walk.ts';

/** Longest block (visible characters) read as a disclosure. */
const MAX_TEXT = 400;

const DISCLOSURE = [
  // "this post contains / may contain affiliate links", "our site uses affiliate links"
  /\b(?:this|our|my) (?:post|page|article|site|website|blog|review|guide|content)s? (?:may )?(?:contains?|includes?|uses?|features?) (?:some )?affiliate/i,
  // "we may earn a (small) commission", "I may receive compensation", "links earn us a commission"
  /\b(?:we|i)\b[^.]{0,40}\b(?:earn|receive|get|make)s?\b[^.]{0,30}\b(?:commission|compensation)/i,
  /\bearns? us\b[^.]{0,30}\bcommission/i,
  // Amazon Associates' required wording
  /\b(?:i|we|this (?:web)?site) earns? from qualifying purchases/i,
];

export function isDisclosure(text: string): boolean {
  return DISCLOSURE.some((re) => re.test(text));
}

/** Disclosure paragraphs inside the content parts (outermost blocks only). */
export function disclosures(parts: Element[], stats: StatsMap): Element[] {
  const out: Element[] = [];
  for (const part of parts) {
    elementsInOrder(part, (el) => {
      const tag = tagOf(el);
      if (el === part || (tag !== 'P' && tag !== 'DIV')) return false;
      const text = stats.get(el)?.text ?? 0;
      if (text === 0 || text > MAX_TEXT) return text === 0;
      if (!isDisclosure(el.textContent ?? '')) return false;
      out.push(el);
      return true;
    });
  }
  return out;
}
