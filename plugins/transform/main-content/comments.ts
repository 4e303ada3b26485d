/**
 * Comment threads that no class gives away. Classic blogs and news pages put the readers'
 * comments right after the post, in the same container, often as plain paragraphs and "Posted
 * by: X at 9:41 AM" lines, under a heading or a line that says what follows: "Comments",
 * "4 Responses to “…”", "5 thoughts on “…”", "Leave a Reply", "45 users responded in …". That
 * opener and everything after it in the content is the thread (and its reply form), not the post.
 * Threads classed as comments are boilerplate already (boilerplate.ts); on a forum the comments
 * are the content. A "Related posts:" line closes a post the same way (tail.ts reads the headings
 * that say so inside the in-content cleaning; here any line, a bold paragraph as often as a heading).
 */
import type { StatsMap } from './scoring.ts';
import { isReadNextHeading } from './tail.ts';
import { HEADINGS } from './tags.ts';
import { walkBelow, flatText, tagOf } from './walk.ts';

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
/** A "read next" list may hold at most this share of the content (more, and it is what the page lists) … */
const READ_NEXT_SHARE = 0.4;
/** … and be mostly links and short lines: prose after such a heading means it titled a box inside the text. */
const READ_NEXT_PROSE = 0.5;
/** A closing block this long and mostly prose is the text going on. */
const RESUMED_TEXT = 80;

/** Dates, clock times, "said"/"wrote" and "Reply" links: what comment signatures are made of. */
const SIGNATURE =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b(?:said|wrote|says)\b|\breply\b|\bago\b/gi;
/** Signatures a section under a bare heading must show to be a thread, or be this short (an empty thread's form). */
const MIN_SIGNATURES = 2;
const STUB_TEXT = 300;

export function isThreadOpener(text: string): boolean {
  return text.length > 0 && text.length <= MAX_OPENER && THREAD_OPENER.test(text);
}

/**
 * The elements to leave out for the first opener in `parts` (document order) with enough of the
 * post before it: the block it opens and all that follows to the end of the content, later parts
 * included (parts themselves may be among them). Openers are a comment thread's (not on a thread,
 * where comments are the content) and a "Related posts:" / "You may also like" line's when what
 * follows is a small share of the content and not prose (not in content spread over many
 * sections, a landing page's, where such a heading leads one of them). `gone` tells the blocks
 * already left out. Empty when there is none.
 */
export function closingTail(parts: Element[], stats: StatsMap, gone: (el: Element) => boolean, forum: boolean, spread: boolean): Element[] {
  let total = 0;
  for (const p of parts) total += stats.get(p)?.text ?? 0;
  let before = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const partText = stats.get(part)?.text ?? 0;
    const after = total - before - partText;
    let tail: Element[] | null = null;
    walkBelow(part, (el) => {
      if (tail || gone(el)) return true;
      const s = stats.get(el);
      if (!s || s.text === 0) return true;
      // (read where a line is: a heading, or a block whose text is its own, short)
      if (s.inl === 0 || s.text > MAX_OPENER * 2) return false;
      // (a link "3 comments" is a story's comment count, in a byline or a listing's teaser)
      if (s.link * 2 > s.text) return true;
      const text = flatText(el);
      const thread = !forum && (isThreadOpener(text) || (BARE_OPENER.test(text) && threadLike(el, part, stats)));
      // ("Read more" on a line of its own ends a teaser, not the post)
      if (!thread && (spread || !isReadNextHeading(text) || (/^read more\W*$/i.test(text) && !HEADINGS.has(tagOf(el))))) return true;
      const found = tailFrom(el, part);
      const cut = textOf(found, stats) + after;
      // (an opener in a byline, "Leave a comment", comes before the post: not the thread)
      const kept = total - cut;
      if (
        kept >= KEEP_MIN &&
        (thread || (cut <= total * READ_NEXT_SHARE && !prose(found, stats)) || (kept >= TEASERS_AFTER && teasers(found, el, stats)))
      )
        tail = found;
      return true;
    });
    if (tail) return [...(tail as Element[]), ...parts.slice(i + 1)];
    before += partText;
  }
  return [];
}

/** Headline links (this many words at least) in a list of other stories, and how many make one … */
const HEADLINE_WORDS = 4;
const MIN_TEASERS = 3;
/** … after this much of the post (visible characters): then the list goes whatever its size, blurbs and all. */
const TEASERS_AFTER = 600;

/**
 * Is the tail a list of other stories: several headline links, one at least per paragraph of blurb,
 * and no section heading (the text going on)?
 */
function teasers(els: Element[], opener: Element, stats: StatsMap): boolean {
  let links = 0;
  let paras = 0;
  let headings = 0;
  for (const el of els) headings += stats.get(el)?.headings ?? 0;
  // (the opener may be a heading itself, inside the tail)
  if (headings > (HEADINGS.has(tagOf(opener)) ? 1 : 0)) return false;
  for (const el of els) {
    for (const a of el.getElementsByTagName('a')) if ((a.textContent ?? '').trim().split(/\s+/).length >= HEADLINE_WORDS) links++;
    paras += el.getElementsByTagName('p').length;
  }
  return links >= MIN_TEASERS && links >= paras;
}

/** Is the tail mostly prose, or does the text resume after the list (its last block is a paragraph)? */
function prose(els: Element[], stats: StatsMap): boolean {
  let good = 0;
  for (const el of els) good += stats.get(el)?.goodText ?? 0;
  if (good > textOf(els, stats) * READ_NEXT_PROSE) return true;
  for (let i = els.length - 1; i >= 0; i--) {
    const s = stats.get(els[i]!);
    if (s && s.text > 0) return s.text >= RESUMED_TEXT && s.goodText >= s.text * READ_NEXT_PROSE;
  }
  return false;
}

function textOf(els: Element[], stats: StatsMap): number {
  let n = 0;
  for (const el of els) n += stats.get(el)?.text ?? 0;
  return n;
}

/** The block `opener` leads (climbing while it comes first) and every later sibling up to `part`; `[part]` when it leads the part. */
function tailFrom(opener: Element, part: Element): Element[] {
  let lead: Element = opener;
  for (let p = lead.parentNode as Element | null; p && p !== part && p.firstElementChild === lead; p = p.parentNode as Element | null)
    lead = p;
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
