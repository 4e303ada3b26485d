/**
 * Closing small print: a block named as a disclaimer or disclosures (fund risks, advisory notices,
 * affiliate terms) that ends the content is legal boilerplate the site appends to every article,
 * not part of what the page says. Only at the end: a disclosure leading or inside the text (a
 * ranking's method, a sponsor note) is read with it.
 */
import type { StatsMap } from './scoring.ts';
import { classAndId } from './walk.ts';

const LEGAL_WORD = /^(?:disclaimers?|disclosures?)$/;

/** Text after the block (to the end of its part) up to which it still closes the content. */
const AFTER_MAX = 150;

/** Is the block named as small print (a whole class or id word, not part of a longer one)? */
export function isLegalBlock(el: Element): boolean {
  const name = classAndId(el);
  if (!name || !/disc(?:laim|los)/.test(name)) return false;
  return name.split(/[^a-z]+/).some((w) => LEGAL_WORD.test(w));
}

/** The small-print blocks (in document order) that end `part`: from the last back while each closes it. */
export function closingLegal(legal: Element[], part: Element, stats: StatsMap): Element[] {
  const out: Element[] = [];
  for (let i = legal.length - 1; i >= 0 && closesPart(legal[i]!, part, stats); i--) out.push(legal[i]!);
  return out;
}

/** Does `el` end `part`: at most a line of text follows it inside the part? */
function closesPart(el: Element, part: Element, stats: StatsMap): boolean {
  let after = 0;
  for (let at: Element | null = el; at && at !== part; at = at.parentNode as Element | null) {
    for (let s = at.nextElementSibling; s; s = s.nextElementSibling) {
      after += stats.get(s)?.text ?? 0;
      if (after > AFTER_MAX) return false;
    }
  }
  return true;
}
