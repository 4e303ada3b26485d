/**
 * Boilerplate recognition: junk tags, hidden elements, and navigation / header / footer /
 * sidebar / cookie / share / related / comment / ad blocks recognised by tag, ARIA role and
 * class/id words; consent managers and (on product pages) customer reviews are never content.
 */
import { desktopDisplay } from './responsive.ts';
import { HEADINGS } from './tags.ts';
import { attr, classAndId, classOf, componentId, perString, tagOf } from './walk.ts';

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const HIDDEN_CLASS =
  /(?:^|\s)(?:hidden|d-none|is-hidden|sr-only|u-sronly|sronly|sr_only|is-sr-only|visually-hidden|visuallyhidden|screen-reader-text|screenreader|element-invisible|offscreen|a11y-hidden|u-hidden|hide|a-hidden|aok-hidden|ipshide)(?:\s|$)/i;

// Page builders mark blocks meant for phones or tablets only (often copies of a desktop block);
// pages are judged as a desktop browser shows them.
const HIDDEN_DESKTOP =
  /(?:^|\s)(?:elementor-hidden-desktop|vc_hidden-lg|hidden[-_]desktop|hide[-_](?:on[-_])?desktop|visible[-_]mobile|mobile[-_]only)(?:\s|$)/;

/** Class words of the body of a closed accordion, expander, toggle or tab ("Read more", product details, FAQ answers). */
const COLLAPSED = /accordion|expander|collaps|toggle[-_]*content|tab-?pane|tab-?content/i;

/** Hidden by attribute, inline style or a well-known utility class, and not merely folded away (`marked`: the scan's hiddenByMarkup). */
export function isHidden(
  el: Element,
  cls: string | null = attr(el, 'class'),
  marked = hiddenByMarkup(attr(el, 'hidden'), attr(el, 'aria-hidden'), attr(el, 'style'), cls),
): boolean {
  if (!marked) return false;
  // a collapsed accordion panel (a region named by its toggle button) is content one click away
  if (attr(el, 'role') === 'region' && attr(el, 'aria-labelledby') !== null) return false;
  // likewise a closed accordion, expander, toggle or tab body (but not a folded menu, nor the
  // `hidden` attribute, which also marks templates and not-yet-placed parts)
  return !cls || !COLLAPSED.test(cls) || /nav|menu/i.test(cls) || attr(el, 'hidden') !== null;
}

/** Hidden by the hidden, aria-hidden, style and class attributes' values. */
export function hiddenByMarkup(hidden: string | null, ariaHidden: string | null, style: string | null, cls: string | null): boolean {
  if (hidden !== null) return true;
  if (ariaHidden === 'true') return true;
  if (style && HIDDEN_STYLE.test(style)) return true;
  return !!cls && classHides(cls);
}

const classHides = perString((cls: string): boolean => {
  if (HIDDEN_DESKTOP.test(cls)) return true;
  const desktop = desktopDisplay(cls);
  if (desktop !== null) return !desktop;
  return HIDDEN_CLASS.test(cls);
});

const BOILER_TAGS = new Set(['NAV', 'ASIDE', 'FOOTER', 'MENU']);
const BOILER_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
  'alert',
]);

/**
 * Substrings of class/id that mark boilerplate wherever they occur ("shared" is not "share": styled-components' "shared-styles").
 * Lead-capture forms of the common form plugins (Gravity Forms, WPForms, HubSpot, Marketo) count too: their labels and help texts are not content.
 */
const BOILER_SUBSTR =
  /cookie|consent|gdpr|newsletter|subscri|share(?!d)|sharing|social|related|recommend|recirc|sidebar|side-bar|breadcrumb|pagination|paginat|disqus|taboola|outbrain|advert|sponsor|promo|popup|navbar|navigation|masthead|skiplink|skip-link|jump-link|signup|sign-up|login|follow-us|followus|author-box|authorbox|more-stories|read-next|readnext|toc-wrapper|trending|most-popular|mostpopular|sitenotice|gform_wrapper|wpforms-container|hbspt-form|mktoform/;
/** Whole class/id words that mark boilerplate. */
const BOILER_WORDS = new Set([
  'ad',
  'ads',
  'adv',
  'adsense',
  'nav',
  'menu',
  'menus',
  'tags',
  'tag-list',
  'tagcloud',
  'footer',
  'header-nav',
  'site-header',
  'site-footer',
  'global-header',
  'global-footer',
  'topbar',
  'top-bar',
  'toolbar',
  'modal',
  'overlay',
  'print',
  'rating',
  'ratings',
  'byline-share',
  'utility',
  'utilities',
  'categories',
  'category-list',
  'post-navigation',
  'nav-links',
  'dropdown',
  'offcanvas',
  'off-canvas',
  'drawer',
  'flyout',
  'lightbox',
  'carousel-nav',
  'pager',
  'feedback',
  // a forum post's signature and its author's profile card (phpBB, XenForo, Invision): not the post
  'signature',
  'message-signature',
  'postprofile',
  'message-cell--user',
  'message-userextras',
  // the date/author/category lines above and below a post
  'byline',
  'entry-meta',
  'post-meta',
  'postmetadata',
  // a Q&A page's answer box and the "log in to answer / ask a question" notices below a thread
  'post-form',
  'bottom-notice',
  'js-bottom-notice',
  // Google's mark for what its site search should skip (license footers, feedback widgets)
  'nocontent',
]);
/** Word parts (split at '-' and '_') that mark boilerplate. */
const BOILER_PARTS = new Set([
  'footer',
  'nav',
  'navbar',
  'menu',
  'sidebar',
  'breadcrumbs',
  'breadcrumb',
  'tags',
  'ad',
  'ads',
  'cookie',
  'cookies',
  'newsletter',
  'share',
  'social',
  'related',
  'popup',
  'modal',
  'toolbar',
  'pagination',
]);
/** Author boxes ("about the author", bio cards): boilerplate even inside an entry-content wrapper, except on a product page (a book's author is part of it). */
const AUTHOR_BOX =
  /author[-_]?(?:bio|box|info|desc|profile|card|section|details|about|wrap)|about[-_]?(?:the[-_]?)?author|saboxplugin|abh_|contributor[-_]?(?:bio|info)|shortbio/;
/** Comment sections: boilerplate on articles, the content itself on forums. */
const COMMENT = /comment|disqus|respond|replies|reply-form|discussion/;
/** Comments under a Q&A post (Stack Exchange): remarks on the question or an answer, left out even of a thread. */
const POST_COMMENTS = /js-post-comments-component|js-comments-container|follow-ups-container/;
/**
 * A forum post's signature (phpBB, XenForo, Invision's ipsEntry__signature / ipsSignature): the
 * poster's motto and links under every post, left out even by the loose passes of a short thread.
 */
const SIGNATURE = /(?:^|[\s_-])(?:ips)?signature(?:[\s_]|$)/;
/** Customer review sections: on a product page they are not the product's content (and outweigh it); editorial reviews (a publisher's blurbs, Amazon's "editorialReviews") are the description. */
const REVIEWS = /(?<!editorial)reviews|customerreview|review-list|reviewlist/;
/**
 * Shop furniture around a product: carousels (other products, or the same photos again), popovers
 * and tooltips (hidden until hovered), legal small print, comparison tables of other models,
 * seller-feedback lists, takeovers and modals; the buy box (cart form, quantity picker, mini cart),
 * which is the shop's controls, not the product. On other pages these words can name the content.
 * (Not "shipping": some shops' listings state their delivery terms as part of the item.)
 */
const PRODUCT_CLUTTER =
  /carousel|popover|tool-?tip|disclaimer|legal|comparison|feedback|takeover|modal|mini-?cart|add-?to-?cart|(?:^|[\s_-])cart(?:[\s_-]|$)/;
/** Consent managers (OneTrust, Cookiebot, Didomi, Usercentrics …) and cookie banners. */
const CONSENT = /cookie|consent|gdpr|onetrust|cookiebot|didomi|usercentrics|truste-|qc-cmp/;
const CONTENT_HINT = /article|content|entry|post-body|postbody|story|main|text|body|prose|markdown|rich-text|richtext/;

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
