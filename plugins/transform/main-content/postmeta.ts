/**
 * Post headers on forum threads: who wrote each post and when. Readers of a thread need them (a
 * reply makes sense only next to its author), but they sit in blocks the extractor otherwise drops:
 * the author's profile cell (boilerplate: rank, join date, post count) and short "meta" lines that
 * conditional cleaning takes for clutter. Here the author name and the date line of the common
 * platforms are recognised, so that on a thread they survive while the rest of the cell still goes.
 */
import { attr, flatText, tagOf } from './walk.ts';

/**
 * Class words of a post's author name or date line: XenForo (message-name, message-attribution-main),
 * its VerticalScope skin (MessageCard__user-info__name), Discourse's crawler view (creator,
 * post-time), phpBB (p.author: the date line; see postMetaOf for the name), vBulletin (bigusername),
 * Invision Community 5 and 4 (ipsEntry__username, cAuthorPane_author), Lemmy (person-listing).
 */
const POST_META =
  /(?:^|\s)(?:message-name|message-attribution-main|messagecard__user-info__name|creator|post-time|bigusername|ipsentry__username|cauthorpane_author|person-listing)(?:\s|$)/i;
const PHPBB_AUTHOR = /(?:^|\s)author(?:\s|$)/;

/**
 * The post meta this (classed) element is or holds, or null. Called by the scan for each classed element.
 * phpBB names the author in the first <dt> of its profile card (the rest is rank, post count, join date).
 */
export function postMetaOf(el: Element, tag: string, cls: string): Element | null {
  if (POST_META.test(cls) || (tag === 'P' && PHPBB_AUTHOR.test(cls))) return el;
  if (tag === 'DL' && /(?:^|\s)postprofile(?:\s|$)/.test(cls)) {
    const dt = el.firstElementChild;
    return dt && tagOf(dt) === 'DT' ? dt : null;
  }
  return null;
}

/** Class words of a post's header line (author, date) on platforms not named above. */
const POST_HEADER = /(?:^|[\s_-])(?:meta|header|byline|attribution)(?:[\s_-]|$)/i;
/** Text up to which a post's first block is its header line. */
const HEADER_TEXT = 120;

/**
 * The header line of a post container (see forum.ts), or null: its first block, when its class says
 * meta or header and it is a line (who wrote the post and when), not a part of the post.
 */
export function postHeaderOf(post: Element): Element | null {
  const first = post.firstElementChild;
  const cls = first?.hasAttributes() ? attr(first, 'class') : null;
  if (!first || !cls || !POST_HEADER.test(cls)) return null;
  return (first.textContent ?? '').trim().length <= HEADER_TEXT ? first : null;
}

/** The meta elements of the page being extracted and their ancestors (set only on threads). */
let onPath = new WeakSet<Element>();
let metas = new WeakSet<Element>();

/** Records the post meta of a thread (call once per extraction, before the passes). */
export function notePostMeta(found: readonly Element[], root: Element): void {
  onPath = new WeakSet();
  metas = new WeakSet();
  let last = '';
  for (const m of found) {
    // a post header given twice (a desktop author column and a phone-sized header, one of them hidden
    // by a media query) names the author twice in a row: the first is kept
    const text = flatText(m);
    // (a word boundary after it: "keeper10" after "keeper1" is another author)
    const again = last !== '' && (text === last || text.startsWith(`${last} `));
    last = text;
    if (again) continue;
    // (only meta still in the tree under root: hidden copies were removed by the scan)
    const chain: Element[] = [];
    let a: Element | null = m;
    for (; a && a !== root && !onPath.has(a); a = a.parentElement) chain.push(a);
    if (!a) continue;
    metas.add(m);
    for (const c of chain) onPath.add(c);
    onPath.add(a);
  }
}

/** Does this element hold a post's author name or date line? */
export function holdsPostMeta(el: Element): boolean {
  return onPath.has(el);
}

/** Text up to which a block holding post meta is a post header (beyond it, a post or the thread). */
const META_BLOCK = 300;

/**
 * Drops a block the in-content cleaning took for clutter; on a thread a post header holding the
 * author's name and the date loses only the rest.
 */
export function dropCleaned(el: Element, text: number, forum: boolean, drop: Set<Element>): void {
  if (forum && onPath.has(el) && text <= META_BLOCK) dropAllButMeta(el, drop);
  else drop.add(el);
}

/**
 * A boilerplate block holding post meta (an author cell): adds to `drop` everything in it but the
 * meta elements and the elements around them.
 */
export function dropAllButMeta(el: Element, drop: Set<Element>): void {
  if (metas.has(el)) return;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (metas.has(c)) continue;
    if (onPath.has(c)) dropAllButMeta(c, drop);
    else if (tagOf(c) !== 'BR') drop.add(c);
  }
}
