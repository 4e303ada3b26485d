/**
 * The in-content cleaning inside a thread's posts. A post's counters (its number "#12", its votes
 * "14", its likes "2 Likes") stand alone, and a reply's subject heading repeats the thread's
 * title ("Re: Lamp will not turn"): they number and file the post, they are not of it. And the
 * links a poster pastes are the post's text: a block of bare URLs ("https://…", "www.…") is a
 * reply listing its sources, not a link bar, however link-dense.
 */
import type { StatsMap } from './scoring.ts';
import { holdsPostMeta } from './postmeta.ts';
import { BLOCK, HEADINGS } from './tags.ts';
import { flatText } from './walk.ts';

/** "#12", "14", "2 Likes", "3 votes". */
const COUNTER = /^#?\d+(?: (?:likes?|votes?|points?|reactions?|upvotes?))?$/i;
/** Longest counter (visible characters): "1234reactions". */
const COUNTER_CHARS = 13;

/** Is this element a post's counter (a bare number or count of likes, on a line of its own or in the post's header)? */
export function isCounter(el: Element, tag: string, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > COUNTER_CHARS || s.code > 0) return false;
  // (a number inside a sentence, "Juror <em>#2</em>", is the sentence's)
  return (BLOCK.has(tag) || (!!el.parentElement && holdsPostMeta(el.parentElement))) && COUNTER.test(flatText(el));
}

/** A reply's prefix to the subject it answers (English, German, Scandinavian, Polish forums). */
const REPLY_PREFIX = /^(?:re|aw|sv|vs|odp)\s*(?:\[\d+\])?\s*:\s*/i;
const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Is this heading a reply's subject, "Re: " and the thread's title (`title`, the page's, may add the site's name)? */
export function isReplySubject(el: Element, tag: string, title: string): boolean {
  if (!HEADINGS.has(tag)) return false;
  const text = flatText(el);
  const m = REPLY_PREFIX.exec(text);
  if (!m) return false;
  const subject = words(text.slice(m[0].length));
  return subject.length > 0 && ` ${words(title)} `.includes(` ${subject} `);
}

const BARE_URL = /^(?:https?:\/\/|www\.)\S/i;
/** Share of a block's link text in bare URLs from which its links were pasted by the poster. */
const PASTED = 0.5;

/** Are the links of this block mostly bare URLs (pasted into a post)? */
export function pastedLinks(el: Element, stats: StatsMap): boolean {
  const link = stats.get(el)?.link ?? 0;
  if (!link) return false;
  let urls = 0;
  for (const a of el.getElementsByTagName('a')) {
    const text = flatText(a);
    if (BARE_URL.test(text)) urls += stats.get(a)?.text ?? text.length;
  }
  return urls >= link * PASTED;
}
