/**
 * "Read next" tails: a section at the end of the content under a heading such as "Related
 * articles", "You might also like", "More from …" or "Recommended for you" is a list of links to
 * other pages that many sites put inside the article container, without a telling class ("About
 * the author" closes a post the same way, with a bio and a link to the writer's other posts). It goes
 * with everything after it, when that is a small share of the content.
 */
import type { StatsMap } from './scoring.ts';
import { ELEMENT } from './walk.ts';

const READ_NEXT =
  /^(?:related (?:articles|posts|stories|content|reads|reading|publications|news|links|entries)|you (?:might|may) (?:also )?(?:like|enjoy)|(?:people|readers) who (?:liked|read) this (?:article|post|story) also (?:liked|read)|recommended(?: for you| reading| posts| articles| stories)?|recommend posts|more (?:from|stories|articles|posts|news|like this)\b.*|what to read next|read (?:more|next)|discover more\b.*|(?:most|more) (?:popular|viewed|read|shared|emailed)(?: (?:posts|articles|stories))?|popular (?:posts|articles|stories)|(?:recent|latest) (?:posts|articles|stories|news)|top stories|don['’]t miss|featured posts?|from (?:around )?the web|around the web|keep reading|up next|also read|about the (?:author|writer|reviewer)s?)\W*$/i;

/** Longest heading text looked at (characters). */
const MAX_HEADING = 80;
/** The tail may hold at most this share of the content's text. */
const MAX_SHARE = 0.25;

export function isReadNextHeading(text: string): boolean {
  return text.length > 0 && text.length <= MAX_HEADING && READ_NEXT.test(text);
}

function firstElement(el: Element): Element | null {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === ELEMENT) return c as Element;
    if ((c.nodeValue ?? '').trim()) return null;
  }
  return null;
}

/**
 * The blocks to drop for a "read next" heading inside `part`: the block the heading leads and
 * everything after it up to the part, or nothing when that tail is too big a share of `total`.
 */
export function readNextTail(heading: Element, part: Element, stats: StatsMap, total: number): Element[] {
  // the block the heading opens: climb while the heading (or its wrapper) comes first
  let lead: Element = heading;
  for (let p = lead.parentNode as Element | null; p && p !== part && firstElement(p) === lead; p = p.parentNode as Element | null) lead = p;
  const out: Element[] = [];
  for (let at: Element | null = lead; at && at !== part; at = at.parentNode as Element | null) {
    if (at === lead) out.push(at);
    for (let s = at.nextElementSibling; s; s = s.nextElementSibling) out.push(s);
  }
  let text = 0;
  for (const el of out) text += stats.get(el)?.text ?? 0;
  return text > total * MAX_SHARE ? [] : out;
}
