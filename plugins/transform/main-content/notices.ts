/**
 * Notices about the site and its writer inside a post's own container, where no class or position
 * gives them away, only their wording.
 *
 * Affiliate disclosures: the short paragraph a blog or review site puts above or below a post
 * ("This post may contain affiliate links…", "We may earn a commission when you buy through links
 * on this page"). It is a legal notice about the site, not part of what the post says, and it sits
 * in the post's container. The wording must be the site speaking of itself, so a post about
 * affiliate marketing is safe.
 *
 * Author bios: "Jane Doe is a freelance writer who covers …" closing the post, when the theme does
 * not wrap it in an author box (boilerplate.ts catches those by class). Only at the very end of
 * the content: an article quoting someone's credentials mid-text keeps them.
 */
import type { StatsMap } from './scoring.ts';
import { walkBelow, tagOf } from './walk.ts';

/** Longest block (visible characters) read as a disclosure … */
const MAX_TEXT = 400;
/** … and as an author bio. */
const MAX_BIO = 800;
/** Share of a div's text it must hold itself (not in child blocks) to be read as one paragraph. */
const OWN_TEXT = 0.8;

const DISCLOSURE = [
  // "this post contains / may contain affiliate links", "our site uses affiliate links"
  /\b(?:this|our|my) (?:post|page|article|site|website|blog|review|guide|content)s? (?:may )?(?:contains?|includes?|uses?|features?) (?:some )?affiliate/i,
  // "we may earn a (small) commission", "I may receive compensation", "links earn us a commission"
  /\b(?:we|i)\b[^.]{0,40}\b(?:earn|receive|get|make)s?\b[^.]{0,30}\b(?:commission|compensation)/i,
  /\bearns? us\b[^.]{0,30}\bcommission/i,
  // Amazon Associates' required wording
  /\b(?:i|we|this (?:web)?site) earns? from qualifying purchases/i,
];

/** A name (two to five capitalised words), then "is a … writer / editor / reporter …". */
const BIO =
  /^\s*(?:\p{Lu}[\p{L}'’.-]+(?:\s+(?:\p{Lu}[\p{L}'’.-]+|de|di|da|van|von|der|la|le)){1,4}),?\s+(?:is|was|has been)\s+(?:a|an|the)\b[^.]{0,80}?\b(?:writer|editor|journalist|reporter|author|contributor|correspondent|columnist|blogger|content creator|freelancer)\b/u;
/** At most this share of the part's text may follow a bio. */
const BIO_TAIL = 0.1;

export function isAuthorBio(text: string): boolean {
  return BIO.test(text);
}

/** Words every disclosure has: one cheap test before the others. */
const MONEY = /commission|compensation|affiliate|qualifying/i;

export function isDisclosure(text: string): boolean {
  if (!MONEY.test(text)) return false;
  const words = text.replace(/\s+/g, ' ');
  return DISCLOSURE.some((re) => re.test(words));
}

/** Disclosure paragraphs and closing author bios inside the content parts (outermost blocks only). */
export function notices(parts: Element[], stats: StatsMap, product: boolean): Element[] {
  const out = new Set<Element>();
  for (const part of parts) {
    const partText = stats.get(part)?.text ?? 0;
    walkBelow(part, (el) => {
      if (el === part) return false;
      const st = stats.get(el);
      const text = st?.text ?? 0;
      if (text === 0) return true;
      const tag = tagOf(el);
      // (each text is read once: paragraphs, and divs holding their text themselves)
      if ((tag !== 'P' && tag !== 'DIV') || text > MAX_BIO) return tag === 'P';
      if (tag === 'DIV' && st!.inl < text * OWN_TEXT) return false;
      const raw = el.textContent ?? '';
      // (a book's or a course's page introduces its author: there the bio is content)
      if (!product && BIO.test(raw) && textAfter(el, part, stats) <= partText * BIO_TAIL)
        out.add(wrapper(el, part, stats, text, isAuthorBio));
      else if (text <= MAX_TEXT && isDisclosure(raw)) out.add(wrapper(el, part, stats, MAX_TEXT, isDisclosure));
      else return tag === 'P';
      return true;
    });
  }
  return [...out];
}

/** The outermost div around `el` (inside `part`) of at most `max` characters that still reads as the notice: its box. */
function wrapper(el: Element, part: Element, stats: StatsMap, max: number, reads: (text: string) => boolean): Element {
  let box = el;
  for (let a = el.parentNode as Element | null; a && a !== part && tagOf(a) === 'DIV'; a = a.parentNode as Element | null) {
    if ((stats.get(a)?.text ?? 0) > max || !reads(a.textContent ?? '')) break;
    box = a;
  }
  return box;
}

/** Text of what follows `el` inside `part`. */
function textAfter(el: Element, part: Element, stats: StatsMap): number {
  let text = 0;
  for (let at: Element | null = el; at && at !== part; at = at.parentNode as Element | null) {
    for (let s = at.nextElementSibling; s; s = s.nextElementSibling) text += stats.get(s)?.text ?? 0;
  }
  return text;
}
