/**
 * What lazy-loading scripts leave in the markup: the attributes that park the real image and the
 * placeholder `src` shown meanwhile. Shared by URL resolution (which promotes the real image) and
 * cleaning (which decides whether a `<noscript>` fallback image duplicates a lazy one).
 */

export const LAZY_SRC_ATTRIBUTES = [
  'data-src',
  'data-lazy-src',
  'data-original',
  'data-original-src',
  'data-actualsrc',
  'data-hi-res-src',
] as const;
export const LAZY_SRCSET_ATTRIBUTES = ['data-srcset', 'data-lazy-srcset', 'data-original-srcset'] as const;

/**
 * A file name made only of placeholder words (`blank.gif`, `lazy-placeholder.png`,
 * `grey-16x9.png`), so `lazy-river.jpg` or `blanket.jpg` are not mistaken for one.
 */
const PLACEHOLDER_WORD =
  '(?:placeholder|blank|spacer|transparent|lazy|lazyload|loader|loading|empty|pixel|px|grey|gray|white|image|img|default|\\d+x\\d+)';
const PLACEHOLDER_NAME = new RegExp(`(?:^|/)${PLACEHOLDER_WORD}(?:[-_.]${PLACEHOLDER_WORD})*\\.(?:gif|png|jpe?g|svg|webp)(?:[?#]|$)`, 'i');

/** A src a browser would show before the lazy loader swaps in the real image. */
export function isPlaceholderSrc(src: string | null | undefined): boolean {
  const value = src?.trim() ?? '';
  return value === '' || value === '#' || value === 'about:blank' || value.startsWith('data:') || PLACEHOLDER_NAME.test(value);
}

export function hasLazySource(el: Element): boolean {
  return [...LAZY_SRC_ATTRIBUTES, ...LAZY_SRCSET_ATTRIBUTES].some((name) => !!el.getAttribute(name)?.trim());
}
