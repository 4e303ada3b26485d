/**
 * Boilerplate recognition: junk tags, hidden elements, and navigation / header / footer /
 * sidebar / cookie / share / related / comment / ad blocks recognised by tag, ARIA role and
 * class/id words.
 */
import { attr, classAndId, tagOf } from './walk.ts';

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const HIDDEN_CLASS = /(?:^|\s)(?:hidden|d-none|is-hidden|sr-only|visually-hidden|visuallyhidden|screen-reader-text|screenreader|element-invisible|offscreen|a11y-hidden|u-hidden|hide)(?:\s|$)/i;

/** Hidden by attribute, inline style or a well-known utility class. */
export function isHidden(el: Element): boolean {
  if (attr(el, 'hidden') !== null) return true;
  if (attr(el, 'aria-hidden') === 'true') return true;
  const style = attr(el, 'style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  const cls = attr(el, 'class');
  return !!cls && HIDDEN_CLASS.test(cls);
}

const BOILER_TAGS = new Set(['NAV', 'ASIDE', 'FOOTER', 'MENU']);
const BOILER_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar', 'tablist', 'alert']);

/** Substrings of class/id that mark boilerplate wherever they occur. */
const BOILER_SUBSTR = /cookie|consent|gdpr|newsletter|subscri|share|sharing|social|related|recommend|recirc|sidebar|side-bar|breadcrumb|pagination|paginat|disqus|taboola|outbrain|advert|sponsor|promo|popup|navbar|navigation|masthead|skiplink|skip-link|jump-link|signup|sign-up|login|follow-us|followus|author-box|authorbox|more-stories|read-next|readnext|toc-wrapper|trending|most-popular|mostpopular/;
/** Whole class/id words that mark boilerplate. */
const BOILER_WORDS = new Set([
  'ad', 'ads', 'adv', 'adsense', 'nav', 'menu', 'menus', 'tags', 'tag-list', 'tagcloud', 'footer', 'header-nav',
  'site-header', 'site-footer', 'global-header', 'global-footer', 'topbar', 'top-bar', 'toolbar', 'modal', 'overlay', 'print',
  'rating', 'ratings', 'byline-share', 'utility', 'utilities', 'categories', 'category-list', 'post-navigation', 'nav-links',
  'dropdown', 'offcanvas', 'off-canvas', 'drawer', 'flyout', 'lightbox', 'carousel-nav', 'pager', 'feedback',
]);
/** Word parts (split at '-' and '_') that mark boilerplate. */
const BOILER_PARTS = new Set(['footer', 'nav', 'navbar', 'menu', 'sidebar', 'breadcrumbs', 'breadcrumb', 'tags', 'ad', 'ads', 'cookie', 'cookies', 'newsletter', 'share', 'social', 'related', 'popup', 'modal', 'toolbar', 'pagination']);
/** Comment sections: boilerplate on articles, the content itself on forums. */
const COMMENT = /comment|disqus|respond|replies|reply-form|discussion/;
const CONTENT_HINT = /article|content|entry|post-body|postbody|story|main|text|body|prose|markdown|rich-text|richtext/;

export type BoilerKind = 'tag' | 'role' | 'class' | 'comment' | null;

/** Why an element looks like boilerplate, or null. */
export function boilerplateKind(el: Element, forum: boolean): BoilerKind {
  const tag = tagOf(el);
  if (BOILER_TAGS.has(tag)) return 'tag';
  const role = attr(el, 'role');
  if (role && BOILER_ROLES.has(role.toLowerCase())) return 'role';
  const ci = classAndId(el);
  if (!ci) return null;
  if (!forum && COMMENT.test(ci)) return 'comment';
  if (BOILER_SUBSTR.test(ci)) return CONTENT_HINT.test(ci) && !/share|social|related|cookie|newsletter|sidebar|breadcrumb/.test(ci) ? null : 'class';
  for (const word of ci.split(/[\s_]+/)) {
    if (BOILER_WORDS.has(word)) return 'class';
    // also the parts of BEM-ish / CSS-in-JS names: "post__tags", "Footer-styled__Footer-sc-1x"
    if (CONTENT_HINT.test(word)) continue;
    for (const part of word.split('-')) if (BOILER_PARTS.has(part)) return 'class';
  }
  return null;
}

/** Class/id weight as Readability gives it: ±25. */
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown/;
const NEGATIVE = /-ad-|hidden|^hid$|banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|nav|menu/;
export function classWeight(el: Element, forum: boolean): number {
  const cls = (attr(el, 'class') ?? '').toLowerCase();
  const id = (attr(el, 'id') ?? '').toLowerCase();
  let w = 0;
  for (const s of [cls, id]) {
    if (!s) continue;
    if (NEGATIVE.test(s) && !(forum && COMMENT.test(s))) w -= 25;
    if (POSITIVE.test(s)) w += 25;
  }
  return w;
}
