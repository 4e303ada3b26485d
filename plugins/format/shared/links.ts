/**
 * The links (`<a href>`, `<area href>`) of a page or content root as {text, href}: absolute http(s), without tracking
 * parameters, without jumps within the page, each href+text pair once. Shared by the links and
 * json formats.
 */
import { absoluteUrl, isHttpUrl, withoutHash } from '../../../core/kit.ts';
import { stripTrackingParams } from './tracking.ts';

export interface PageLink {
  text: string;
  href: string;
}

/** What a reader sees as the link: its text, else the label or alt text of an image link or image-map area. */
export function linkText(a: Element): string {
  const text = (a.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text) return text;
  const label =
    a.getAttribute('aria-label') ||
    a.getAttribute('title') ||
    a.getAttribute('alt') ||
    a.querySelector('img[alt]')?.getAttribute('alt') ||
    '';
  return label.replace(/\s+/g, ' ').trim();
}

/** `#section` after URL resolution made it absolute: a jump within the page, not a link elsewhere. */
export function isSamePageJump(href: string, baseUrl: string): boolean {
  return href.includes('#') && withoutHash(href) === withoutHash(baseUrl);
}

export function pageLinks(scope: ParentNode, baseUrl: string): PageLink[] {
  const links: PageLink[] = [];
  const seen = new Set<string>();
  // Image-map areas are links too (a site's map of its sections is often one).
  for (const a of scope.querySelectorAll('a[href], area[href]')) {
    const raw = a.getAttribute('href')!.trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const resolved = absoluteUrl(raw, baseUrl);
    if (!resolved || !isHttpUrl(resolved) || isSamePageJump(resolved, baseUrl)) continue;
    const href = stripTrackingParams(resolved);
    const text = linkText(a);
    const key = `${href}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ text, href });
  }
  return links;
}
