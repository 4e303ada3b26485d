/**
 * What a reader of the rendered page would not see: `hidden`, inline `display:none` /
 * `visibility:hidden`, and `aria-hidden` decoration. Kept apart from the clean plugin so each
 * rule is testable on its own.
 */
import { countWords } from '../../../core/kit.ts';

const INLINE_HIDDEN = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!\s*important\s*)?(?=;|$)/i;

/** Larger `aria-hidden` subtrees are kept: sites flag the whole page while a modal is open. */
const DECORATIVE_MAX_WORDS = 3;

export function isInlineHidden(el: Element): boolean {
  return INLINE_HIDDEN.test(el.getAttribute('style') ?? '');
}

/** `hidden="until-found"` content (collapsed accordions) is findable by the reader, so it stays. */
export function isHiddenAttribute(el: Element): boolean {
  return el.hasAttribute('hidden') && el.getAttribute('hidden')?.trim().toLowerCase() !== 'until-found';
}

/** Icons, separators and visual duplicates of screen-reader text: hidden from AT and nearly wordless. */
export function isDecorativeAriaHidden(el: Element): boolean {
  return el.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true' && countWords(el.textContent ?? '') <= DECORATIVE_MAX_WORDS;
}

/** Removes invisible descendants of `root`; `root` itself always stays (anti-flicker snippets hide `<body>`). */
export function removeInvisible(root: Element): void {
  for (const el of root.querySelectorAll('[hidden], [style], [aria-hidden]')) {
    if (isHiddenAttribute(el) || isInlineHidden(el) || isDecorativeAriaHidden(el)) el.remove();
  }
}

/**
 * Inline SVG is markup, not text, except an image with an accessible name (`role="img"` plus
 * `aria-label` or `<title>`), which becomes that name: what a screen reader would announce.
 */
export function replaceSvgs(root: Element): void {
  for (const svg of root.querySelectorAll('svg')) {
    if (!root.contains(svg)) continue; // an svg nested in one already removed
    const name = svg.getAttribute('role')?.trim() === 'img' ? svgName(svg) : '';
    if (!name) {
      svg.remove();
      continue;
    }
    const span = svg.ownerDocument.createElement('span');
    span.textContent = name;
    svg.replaceWith(span);
  }
}

function svgName(svg: Element): string {
  const label = svg.getAttribute('aria-label') ?? svg.querySelector('title')?.textContent ?? '';
  return label.replace(/\s+/g, ' ').trim();
}
