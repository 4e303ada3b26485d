/**
 * Hidden elements: what the hidden and aria-hidden attributes, an inline style or a utility class
 * (including phone-only blocks) keep out of view, as a desktop browser shows the page.
 */
import { desktopDisplay } from './responsive.ts';
import { attr, perString } from './walk.ts';

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
