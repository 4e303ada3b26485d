/**
 * A post's signature: its date (a <time>, a datetime or date property) and its author's name (a
 * link to a member's profile, an author property). The scan notes them on every page; posts.ts
 * finds the posts they sign, and on a thread they are the posts' meta lines.
 */
import { attr } from './walk.ts';

/** Links to a member's profile: what names a post's author. */
export const PROFILE =
  /\/(?:u|users?|members?|profiles?|people|authors?)\/|memberlist\.php|viewprofile|[?&](?:u|uid|userid|user)=\d|\/@[\w.-]+\/?$/i;
const DATE_PROP = /^date(?:Published|Created)$/;

/** A post's signature element: its date or its author's name. */
export interface PostMark {
  el: Element;
  date: boolean;
  /** It is the name or date line itself (a <meta> date is not shown: its parent stands in, for finding the post only). */
  shown: boolean;
}

/**
 * The mark this element is (called by the scan for each element, with its class: undefined when it
 * has no attributes, and its itemprop, datetime and rel), or null. A <meta> date is removed with the
 * page's junk: its parent stands in.
 */
export function postMarkOf(
  el: Element,
  tag: string,
  cls: string | null | undefined,
  prop: string | null,
  datetime: string | null,
  rel: string | null,
): PostMark | null {
  if (tag === 'TIME') return { el, date: true, shown: true };
  if (cls === undefined) return null;
  if ((prop && DATE_PROP.test(prop)) || datetime !== null) {
    if (tag !== 'META') return { el, date: true, shown: true };
    return el.parentElement ? { el: el.parentElement, date: true, shown: false } : null;
  }
  // (an author property may be the whole post header, a link is the name)
  if (prop === 'author' || rel === 'author') return { el, date: false, shown: tag === 'A' };
  return tag === 'A' && PROFILE.test(attr(el, 'href') ?? '') ? { el, date: false, shown: true } : null;
}
