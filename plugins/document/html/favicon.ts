/**
 * The favicon: the largest icon the page declares (`<link rel="icon">`, `apple-touch-icon`),
 * else `/favicon.ico` at the page's origin, where browsers look when none is declared — a guess,
 * which the pipeline answers only after checking it (core/net/favicon.ts).
 */
import { absoluteUrl } from '../../../core/kit.ts';
import type { DomDocument } from '../../../core/kit.ts';
import { indexPage, type PageIndex } from './page-index.ts';

const ICON_RELS = new Set(['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed']);
/** A scalable icon (`sizes="any"`, usually SVG) draws sharp at any size. */
const SCALABLE = 1024;
/** Apple's documented default size for an apple-touch-icon without `sizes`. */
const TOUCH_ICON_DEFAULT = 180;

/** The largest edge named in `sizes` ("16x16 32x32", "any"); 0 when unknown. */
export function declaredIconSize(link: Element): number {
  const sizes = (link.getAttribute('sizes') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  let largest = 0;
  for (const size of sizes) {
    if (size === 'any') largest = Math.max(largest, SCALABLE);
    const match = /^(\d+)x(\d+)$/.exec(size);
    if (match) largest = Math.max(largest, Number(match[1]), Number(match[2]));
  }
  if (largest === 0 && /apple-touch-icon/.test((link.getAttribute('rel') ?? '').toLowerCase())) return TOUCH_ICON_DEFAULT;
  return largest;
}

export function pickFavicon(dom: DomDocument, baseUrl: string, pageUrl: string, index: PageIndex = indexPage(dom)): string | null {
  let best: { url: string; size: number } | null = null;
  for (const link of index.links) {
    if (!link.hasAttribute('href')) continue;
    const rels = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rels.some((rel) => ICON_RELS.has(rel))) continue;
    const url = absoluteUrl(link.getAttribute('href'), baseUrl);
    const size = declaredIconSize(link);
    // Ties keep the first declared: pages list their preferred icon first.
    if (url && (!best || size > best.size)) best = { url, size };
  }
  if (best) return best.url;
  return absoluteUrl('/favicon.ico', pageUrl);
}
