/**
 * The in-content cleaning inside a thread's posts. What numbers a post, files it or operates it is
 * not part of it: its counters standing alone (its number "#12", its votes "14", its likes "2 Likes"), a
 * reply's subject repeating the thread's title ("Re: Lamp will not turn"), the short form of a
 * date given twice in one <time> ("August 26, 2024" and "1 yr"), a reply's preview of the post it
 * answers (clamped to a line: that post is on the page), a code box's bar ("Code: Select all"), a
 * poster's card (rank, join date, post count under the name, which stays) and a form control's
 * label. And the links a poster pastes are the post's text: a block of bare URLs ("https://…",
 * "www.…") is a reply listing its sources, not a link bar, however link-dense.
 */
import type { StatsMap } from './scoring.ts';
import { holdsPostMeta } from './postmeta.ts';
import { BLOCK, HEADINGS } from './tags.ts';
import { attr, flatText, tagOf } from './walk.ts';

/** "#12", "14", "2 Likes", "3 votes". */
const COUNTER = /^#?\d+(?: (?:likes?|votes?|points?|reactions?|upvotes?))?$/i;
/** Longest counter (visible characters): "1234reactions". */
const COUNTER_CHARS = 13;

/** Is this element one of the things the cleaning takes out of a thread's posts (see the header)? */
export function isPostClutter(el: Element, tag: string, stats: StatsMap, title: string): boolean {
  // (a label with a for= names a form control, and controls are not kept: "Sorted by:" without its menu)
  if (tag === 'LABEL') return attr(el, 'for') !== null;
  if (tag === 'DD') return isCardLine(el, stats);
  return (
    isCounter(el, tag, stats) || isReplySubject(el, tag, title) || isShortDate(el, stats) || isPreview(el, stats) || isCodeBar(el, stats)
  );
}

/** Longest line of a poster's card (visible characters): "Registered: 2016-07-02". */
const CARD_LINE = 32;

/**
 * Is this <dd> a line of a poster's card: a list headed by the name (<dt>) with the rank, join date
 * and post count below, all short (phpBB, FluxBB, PunBB draw their author column so)? The name stays.
 */
function isCardLine(el: Element, stats: StatsMap): boolean {
  const dl = el.parentElement;
  const dt = dl?.firstElementChild;
  if (!dl || tagOf(dl) !== 'DL' || !dt || tagOf(dt) !== 'DT' || (stats.get(dt)?.text ?? 0) > CARD_LINE) return false;
  let lines = 0;
  for (let c = dt.nextElementSibling; c; c = c.nextElementSibling) {
    if (tagOf(c) !== 'DD' || (stats.get(c)?.text ?? 0) > CARD_LINE) return false;
    lines++;
  }
  return lines >= 2;
}

/** Longest code box bar (visible characters): "Code: Select all", "Code: [Select]". */
const CODE_BAR = 24;

/**
 * Is this line the bar of a code box: right above the code, a label and a link that goes nowhere
 * (href="#" or javascript:, a script's "Select all" or "Copy")? It works the box, it is not the post.
 */
function isCodeBar(el: Element, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > CODE_BAR || s.link === 0 || tagOf(el.nextElementSibling ?? el) !== 'PRE') return false;
  for (const a of el.getElementsByTagName('a')) if (/^(?:#|javascript:)/i.test(attr(a, 'href') ?? '#')) return true;
  return false;
}

/** Utility classes that clamp a block to a line or two. */
const CLAMPED = /(?:^|\s)line-clamp-[12](?:\s|$)/;
/** Text from which a clamped block is a preview (visible characters: a line shows 60-100). */
const PREVIEW_TEXT = 200;

/**
 * Is this block a preview of another post, clamped to a line or two (a reply's "in reply to" strip
 * repeating the post it answers)? Readers see a line of it; the post itself is on the page.
 */
function isPreview(el: Element, stats: StatsMap): boolean {
  return (stats.get(el)?.text ?? 0) >= PREVIEW_TEXT && CLAMPED.test(attr(el, 'class') ?? '');
}

/** Is this element a post's counter (a bare number or count of likes, on a line of its own or in the post's header)? */
function isCounter(el: Element, tag: string, stats: StatsMap): boolean {
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > COUNTER_CHARS || s.code > 0) return false;
  // (a number inside a sentence, "Juror <em>#2</em>", is the sentence's)
  return (BLOCK.has(tag) || (!!el.parentElement && holdsPostMeta(el.parentElement))) && COUNTER.test(flatText(el));
}

/** A reply's prefix to the subject it answers (English, German, Scandinavian, Polish forums). */
const REPLY_PREFIX = /^(?:re|aw|sv|vs|odp)\s*(?:\[\d+\])?\s*:\s*/i;
const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Is this heading a reply's subject, "Re: " and the thread's title (`title`, the page's, may add the site's name)? */
function isReplySubject(el: Element, tag: string, title: string): boolean {
  if (!HEADINGS.has(tag)) return false;
  const text = flatText(el);
  const m = REPLY_PREFIX.exec(text);
  if (!m) return false;
  const subject = words(text.slice(m[0].length));
  return subject.length > 0 && ` ${words(title)} `.includes(` ${subject} `);
}

/** A date's short, relative rendering: "1 yr", "3 mo", "5d", "2 hours ago". */
const RELATIVE =
  /^(?:\d+\s*(?:y|yrs?|years?|mo|mos|months?|w|wks?|weeks?|d|days?|h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)(?:\s+ago)?|just now|yesterday)$/i;
/** Longest short rendering (visible characters). */
const RELATIVE_CHARS = 14;

/**
 * Is this element the short rendering of a <time> that also holds the long one ("August 26, 2024"
 * and "1 yr", the stylesheet showing one of them at each width)? The long one is the date.
 */
function isShortDate(el: Element, stats: StatsMap): boolean {
  const time = el.parentElement;
  if (!time || tagOf(time) !== 'TIME' || (stats.get(el)?.text ?? 0) > RELATIVE_CHARS || !RELATIVE.test(flatText(el))) return false;
  for (let c = time.firstElementChild; c; c = c.nextElementSibling)
    if (c !== el && /\d/.test(c.textContent ?? '') && !RELATIVE.test(flatText(c))) return true;
  return false;
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
