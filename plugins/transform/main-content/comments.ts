/**
 * Comment threads that no class gives away. Classic blogs and news pages put the readers'
 * comments right after the post, in the same container, often as plain paragraphs and "Posted
 * by: X at 9:41 AM" lines, under a heading or a line that says what follows: "Comments",
 * "4 Responses to “…”", "5 thoughts on “…”", "Leave a Reply", "45 users responded in …". That
 * opener and everything after it in the content is the thread (and its reply form), not the post.
 * Threads classed as comments are boilerplate already (boilerplate.ts); on a forum the comments
 * are the content and nothing here applies.
 */
import type { StatsMap } from './scoring.ts';
import { elementsInOrder, flatText } from './walk.ts';

/** Openers that say a thread follows, whatever comes after them. */
const THREAD_OPENER = new RegExp(
  [
    // "12 Comments", "No comments", "4 Responses to “…”", "5 thoughts on “…”", "{ 19 comments… read them below or add one }"
    String.raw`^\{?\s*(?:\d+|no|one|two|three)\s+(?:comments?|responses?|replies|thoughts|reactions|trackbacks?)\b`,
    // "Comments (3)", "Comments: 4"
    String.raw`^comments?\s*[:(]\s*\d+`,
    String.raw`^(?:user|reader|readers['’]?|visitor|your)\s+comments?\b`,
    String.raw`^(?:leave|post|add|write|submit)\s+(?:a|an|your|new)?\s*(?:comment|reply|response)\b`,
    String.raw`^(?:join|start)\s+the\s+(?:discussion|conversation)\b`,
    String.raw`^there\s+(?:are|is)\s+\d+\s+comments?\b`,
    String.raw`^\d+\s+(?:users?|readers?|people)\s+(?:responded|commented)\b`,
    String.raw`^(?:the\s+)?comments\s+(?:to\s+this\s+(?:entry|post)\s+)?(?:are|is)\s+closed\b`,
    String.raw`^(?:blog\s+)?comments\s+powered\s+by\b`,
    String.raw`^trackbacks?(?:\s+url\b|$)`,
  ].join('|'),
  'i',
);
/** A bare "Comments" heading: a thread when the section under it reads like one (see threadLike). */
const BARE_OPENER = /^(?:comments?|responses|replies|discussion)\s*:?$/i;

/** Longest opener read (visible characters, whitespace collapsed). */
const MAX_OPENER = 120;
/** Text the content must keep before the opener: a thread is cut only after a post. */
const KEEP_MIN = 150;

/** Dates, clock times, "said"/"wrote" and "Reply" links: what comment signatures are made of. */
const SIGNATURE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b(?:said|wrote|says)\b|\breply\b|\bago\b/gi;
/** Signatures a section under a bare heading must show to be a thread, or be this short (an empty thread's form). */
const MIN_SIGNATURES = 2;
const STUB_TEXT = 300;

export function isThreadOpener(text: string): boolean {
  return text.length > 0 && text.length <= MAX_OPENER && THREAD_OPENER.test(text);
}

/**
 * The elements to leave out for the first comment-thread opener in `parts` (document order) with
 * enough of the post before it: the block it opens and all that follows to the end of the
 * content, later parts included. Parts themselves may be among them. Empty when there is none.
 */
export function commentThread(parts: Element[], stats: StatsMap, dropped: ReadonlySet<Element>): Element[] {
  let before = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const partText = stats.get(part)?.text ?? 0;
    let tail: Element[] | null = null;
    elementsInOrder(part, (el) => {
      if (tail || dropped.has(el)) return true;
      const s = stats.get(el);
      if (!s || s.text === 0) return true;
      // (read where a line is: a heading, or a block whose text is its own, short)
      if (s.inl === 0 || s.text > MAX_OPENER * 2) return false;
      // (a link "3 comments" is a story's comment count, in a byline or a listing's teaser)
      if (s.link * 2 > s.text) return true;
      const text = flatText(el);
      if (!isThreadOpener(text) && !(BARE_OPENER.test(text) && threadLike(el, part, stats))) return true;
      const found = tailFrom(el, part);
      // (an opener in a byline, "Leave a comment", comes before the post: not the thread)
      if (before + partText - textOf(found, stats) >= KEEP_MIN) tail = found;
      return true;
    });
    if (tail) return [...(tail as Element[]), ...parts.slice(i + 1)];
    before += partText;
  }
  return [];
}

function textOf(els: Element[], stats: StatsMap): number {
  let n = 0;
  for (const el of els) n += stats.get(el)?.text ?? 0;
  return n;
}

/** The block `opener` leads (climbing while it comes first) and every later sibling up to `part`; `[part]` when it leads the part. */
function tailFrom(opener: Element, part: Element): Element[] {
  let lead: Element = opener;
  for (let p = lead.parentNode as Element | null; p && p !== part && p.firstElementChild === lead; p = p.parentNode as Element | null) lead = p;
  if (lead.parentNode === part && part.firstElementChild === lead) return [part];
  const out: Element[] = [];
  for (let at: Element | null = lead; at && at !== part; at = at.parentNode as Element | null) {
    if (at === lead) out.push(at);
    for (let s = at.nextElementSibling; s; s = s.nextElementSibling) out.push(s);
  }
  return out;
}

/** Does the section after a bare "Comments" heading read as a thread (signatures), or is it a stub (a form)? */
function threadLike(heading: Element, part: Element, stats: StatsMap): boolean {
  const tail = tailFrom(heading, part);
  const size = textOf(tail, stats) - (stats.get(heading)?.text ?? 0);
  if (size <= STUB_TEXT) return true;
  let text = '';
  for (let i = 0; i < tail.length && text.length < 4000; i++) text += ` ${tail[i]!.textContent ?? ''}`;
  return (text.match(SIGNATURE)?.length ?? 0) >= MIN_SIGNATURES;
}
