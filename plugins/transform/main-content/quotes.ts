/**
 * Reply quotes in forum threads: a post that answers an earlier one often repeats part of it in a
 * quote box headed "Name said:" / "Name wrote:" / "Quote: Originally Posted by Name". The quoted
 * words belong to the earlier post (on this page or an earlier one), so the copy is left out of the
 * thread. Quotes without such a heading (a source cited in an answer) stay.
 */
import { attr, tagOf } from './walk.ts';

/** How far into the quote the attribution may start (visible characters, whitespace collapsed). */
const HEAD_CHARS = 120;
/** "Name said:", "Name wrote: ↑", "Quote: Originally Posted by Name", "Quote from Name on …". */
const ATTRIBUTION =
  /^(?:quote:?\s*)?(?:originally posted by\s+\S.{0,60}|\S.{0,60}?\s(?:said|wrote|schrieb|a écrit|escribió|ha scritto)\s*:|quote from\s+\S.{0,60}?\s(?:on|at)\s)/i;
/** Platforms' quote-box classes (XenForo, Invision, vBulletin, SMF, MyBB …), as a whole class word. */
const QUOTE_CLASS = /(?:^|\s)(?:bbcodeblock--quote|ipsquote|bbcode_quote|quotecontainer|quote|mycode_quote|vbeditorcontent-quote)(?:\s|$)/i;

/** Is this element a quote of another post, with its attribution? */
export function isReplyQuote(el: Element): boolean {
  const tag = tagOf(el);
  if (tag !== 'BLOCKQUOTE' && !((tag === 'DIV' || tag === 'ASIDE') && QUOTE_CLASS.test(attr(el, 'class') ?? ''))) return false;
  if (attr(el, 'data-quote') !== null || attr(el, 'data-ipsquote-username') !== null) return true;
  const head = (el.textContent ?? '')
    .slice(0, HEAD_CHARS * 3)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, HEAD_CHARS);
  return ATTRIBUTION.test(head);
}
