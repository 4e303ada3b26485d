/**
 * The vocabulary of boilerplate: the tags, ARIA roles and class/id words that mark navigation,
 * headers, footers, sidebars, consent banners, comments, reviews and shop furniture.
 */

export const BOILER_TAGS = new Set(['NAV', 'ASIDE', 'FOOTER', 'MENU']);
export const BOILER_ROLES = new Set([
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
 * Substrings of class/id that mark boilerplate wherever they occur ("shared" is not "share":
 * styled-components' "shared-styles"). Lead-capture forms of the common form plugins (Gravity
 * Forms, WPForms, HubSpot, Marketo) count too: their labels and help texts are not content.
 */
export const BOILER_SUBSTR =
  /cookie|consent|gdpr|newsletter|subscri|share(?!d)|sharing|social|related|recommend|recirc|sidebar|side-bar|breadcrumb|pagination|paginat|disqus|taboola|outbrain|advert|sponsor|promo|popup|navbar|navigation|masthead|skiplink|skip-link|jump-link|signup|sign-up|login|follow-us|followus|author-box|authorbox|more-stories|read-next|readnext|toc-wrapper|trending|most-popular|mostpopular|sitenotice|gform_wrapper|wpforms-container|hbspt-form|mktoform/;
/** Whole class/id words that mark boilerplate. */
export const BOILER_WORDS = new Set([
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
export const BOILER_PARTS = new Set([
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
/**
 * Author boxes ("about the author", bio cards): boilerplate even inside an entry-content wrapper,
 * except on a product page (a book's author is part of it).
 */
export const AUTHOR_BOX =
  /author[-_]?(?:bio|box|info|desc|profile|card|section|details|about|wrap)|about[-_]?(?:the[-_]?)?author|saboxplugin|abh_|contributor[-_]?(?:bio|info)|shortbio/;
/** Comment sections: boilerplate on articles, the content itself on forums. */
export const COMMENT = /comment|disqus|respond|replies|reply-form|discussion/;
/** Comments under a Q&A post (Stack Exchange): remarks on the question or an answer, left out even of a thread. */
export const POST_COMMENTS = /js-post-comments-component|js-comments-container|follow-ups-container/;
/**
 * A forum post's signature (phpBB, XenForo, Invision's ipsEntry__signature / ipsSignature): the
 * poster's motto and links under every post, left out even by the loose passes of a short thread.
 */
export const SIGNATURE = /(?:^|[\s_-])(?:ips)?signature(?:[\s_]|$)/;
/**
 * Customer review sections: on a product page they are not the product's content (and outweigh it);
 * editorial reviews (a publisher's blurbs, Amazon's "editorialReviews") are the description.
 */
export const REVIEWS = /(?<!editorial)reviews|customerreview|review-list|reviewlist/;
/**
 * Shop furniture around a product: carousels (other products, or the same photos again), popovers
 * and tooltips (hidden until hovered), legal small print, comparison tables of other models,
 * seller-feedback lists, takeovers and modals; the buy box (cart form, quantity picker, mini cart),
 * which is the shop's controls, not the product. On other pages these words can name the content.
 * (Not "shipping": some shops' listings state their delivery terms as part of the item.)
 */
export const PRODUCT_CLUTTER =
  /carousel|popover|tool-?tip|disclaimer|legal|comparison|feedback|takeover|modal|mini-?cart|add-?to-?cart|(?:^|[\s_-])cart(?:[\s_-]|$)/;
/** Consent managers (OneTrust, Cookiebot, Didomi, Usercentrics …) and cookie banners. */
export const CONSENT = /cookie|consent|gdpr|onetrust|cookiebot|didomi|usercentrics|truste-|qc-cmp/;
export const CONTENT_HINT = /article|content|entry|post-body|postbody|story|main|text|body|prose|markdown|rich-text|richtext/;
