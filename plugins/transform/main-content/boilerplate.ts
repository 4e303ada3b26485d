/**
 * Boilerplate recognition: navigation / header / footer / sidebar / cookie / share / related /
 * comment / ad blocks recognised by tag, ARIA role and class/id words (the words: boiler-words.ts);
 * consent managers and (on product pages) customer reviews are never content.
 */
import {
  AUTHOR_BOX,
  BOILER_PARTS,
  BOILER_ROLES,
  BOILER_SUBSTR,
  BOILER_TAGS,
  BOILER_WORDS,
  COMMENT,
  CONSENT,
  CONTENT_HINT,
  POST_COMMENTS,
  PRODUCT_CLUTTER,
  REVIEWS,
  SIGNATURE,
} from './boiler-words.ts';
import { HEADINGS } from './tags.ts';
import { attr, classAndId, classOf, componentId, perString, tagOf } from './walk.ts';

/** 'comment' and 'consent' blocks are never content, however much text they hold. */
export type BoilerKind = 'tag' | 'role' | 'tabs' | 'class' | 'comment' | 'consent' | null;

/** What the page is, as far as boilerplate goes: threads keep comments, products drop reviews. */
export interface PageKind {
  forum: boolean;
  product: boolean;
  /** An article (see article.ts): its headline block is not content. */
  article?: boolean;
}

// What an element's tag, role and class/id say, as bits: the same for every pass, so it is worked
// out once per element (the class/id regexes are the extractor's hottest code), and what a class/id
// string says once per string: a page repeats its class names over and over.
const TAG = 1,
  ROLE = 2,
  CLASS = 4,
  COMMENTS = 8,
  REVIEW = 16,
  CONSENTS = 32,
  TABS = 64,
  QA_COMMENTS = 128,
  AUTHOR = 256,
  SHOP = 512;
const facts = new WeakMap<Element, number>();

function factsOf(el: Element): number {
  // (most elements have no attributes: their tag alone says it, cheaper than remembering it)
  if (!el.hasAttributes()) return BOILER_TAGS.has(tagOf(el)) ? TAG : 0;
  let f = facts.get(el);
  if (f !== undefined) return f;
  f = 0;
  const role = attr(el, 'role');
  if (BOILER_TAGS.has(tagOf(el))) f |= TAG;
  else if (role && BOILER_ROLES.has(role.toLowerCase())) f |= role.toLowerCase() === 'tablist' ? TABS : ROLE;
  // a heading's class and id name its section ("social-benefits", "feedback", Docusaurus's
  // "anchorWithStickyNavbar"): the block around it, not the heading, is what may be boilerplate
  else if (!HEADINGS.has(tagOf(el))) {
    const ci = classAndId(el);
    if (ci) f |= nameFacts(ci);
  }
  facts.set(el, f);
  return f;
}

/** What a class/id string (lower-cased, see classAndId) says. */
const nameFacts = perString((ci: string): number => {
  let f = 0;
  if (CONSENT.test(ci)) f |= CONSENTS;
  if (COMMENT.test(ci)) f |= COMMENTS;
  if (POST_COMMENTS.test(ci) || SIGNATURE.test(ci)) f |= QA_COMMENTS;
  if (REVIEWS.test(ci)) f |= REVIEW;
  if (PRODUCT_CLUTTER.test(ci)) f |= SHOP;
  if (classSaysBoilerplate(ci)) f |= CLASS;
  else if (AUTHOR_BOX.test(ci)) f |= AUTHOR;
  return f;
});

function classSaysBoilerplate(ci: string): boolean {
  if (BOILER_SUBSTR.test(ci)) return !CONTENT_HINT.test(ci) || /share(?!d)|social|related|cookie|newsletter|sidebar|breadcrumb/.test(ci);
  for (const word of ci.split(/[\s_]+/)) {
    if (BOILER_WORDS.has(word)) return true;
    // also the parts of BEM-ish / CSS-in-JS names: "post__tags", "Footer-styled__Footer-sc-1x"
    if (CONTENT_HINT.test(word)) continue;
    for (const part of word.split('-')) if (BOILER_PARTS.has(part)) return true;
  }
  return false;
}

/**
 * The class words that by themselves say boilerplate ("promo-carousel" in "w-100 flex promo-carousel
 * wrap-reverse-ns"): like blocks share them even when their layout utility classes differ.
 */
export function boilerClassWords(el: Element): string {
  const cls = classOf(el);
  if (!cls) return '';
  return cls
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w && classSaysBoilerplate(w))
    .join(' ');
}

/** Why an element looks like boilerplate, or null. */
export function boilerplateKind(el: Element, page: PageKind): BoilerKind {
  const f = factsOf(el);
  if (f & TAG) return 'tag';
  if (f & ROLE) return 'role';
  if (f & TABS) return 'tabs';
  if (f & CONSENTS) return 'consent';
  // reviews stay out even in the pass that retries a page as a thread (only real threads keep them)
  if ((!page.forum && f & COMMENTS) || f & QA_COMMENTS || (page.product && f & REVIEW)) return 'comment';
  return f & CLASS || (f & AUTHOR && !page.product) ? 'class' : null;
}

/** Shop furniture inside a product's content (see PRODUCT_CLUTTER): cleaned away after the pick. */
export function isProductClutter(el: Element): boolean {
  return (factsOf(el) & SHOP) !== 0;
}

/**
 * Class/id weight as Readability gives it: ±25. Unlike Readability, "hidden" counts only as a whole
 * word and "scroll" not at all: in today's utility classes (overflow-hidden, overflow-x-scroll,
 * hidden-sm, accordion-panel-hidden, scroller) they mark layout and collapsed content, not clutter;
 * truly hidden elements are already gone (prepare.ts).
 */
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown/;
const NEGATIVE =
  /-ad-|(?:^|\s)hidden(?:\s|$)|^hid$|banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|share(?!d)|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|nav|menu/;
export function classWeight(el: Element, forum: boolean): number {
  const cls = (classOf(el) ?? '').toLowerCase();
  const id = (attr(el, 'id') ?? '').toLowerCase();
  let w = 0;
  for (const s of [cls, id]) {
    if (!s) continue;
    // a heading's anchor slug ("sharing-with-…") names a content section: its words never count against it
    if (NEGATIVE.test(s) && !(forum && COMMENT.test(s)) && (s === cls || componentId(el))) w -= 25;
    if (POSITIVE.test(s)) w += 25;
  }
  return w;
}
