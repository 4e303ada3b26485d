/**
 * Links format: every `a[href]` of the whole page (`doc.dom`), not only the extracted content:
 * people ask for links to discover a site, and its navigation, footer and sidebars are where the
 * site's structure lives. The page is read after cleaning and `exclude_selectors` (hidden
 * and excluded elements are gone) but regardless of `include_selectors` and `only_main_content`.
 * Hrefs are absolute http(s) without tracking parameters (`utm_*`, `fbclid` …); jumps within the
 * page (`#section`, also once URL resolution made them absolute), `javascript:`, `mailto:` and
 * other schemes are dropped; each href+text pair appears once.
 */
import { definePlugin } from '../../../core/plugin.ts';
import type { PageDocument } from '../../../core/document.ts';
import { absoluteUrl, documentBaseUrl, isHttpUrl, withoutHash } from '../../../core/net/url.ts';
import { stripTrackingParams } from '../markdown/tracking.ts';

export interface PageLink {
  text: string;
  href: string;
}

/** What a reader sees as the link: its text, else the label or alt text of an image link. */
export function linkText(a: Element): string {
  const text = (a.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text) return text;
  const label = a.getAttribute('aria-label') || a.getAttribute('title') || a.querySelector('img[alt]')?.getAttribute('alt') || '';
  return label.replace(/\s+/g, ' ').trim();
}

/** `#section` after URL resolution made it absolute: a jump within the page, not a link elsewhere. */
export function isSamePageJump(href: string, baseUrl: string): boolean {
  return href.includes('#') && withoutHash(href) === withoutHash(baseUrl);
}

export function pageLinks(scope: ParentNode, baseUrl: string): PageLink[] {
  const links: PageLink[] = [];
  const seen = new Set<string>();
  for (const a of scope.querySelectorAll('a[href]')) {
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

export const linksFormat = definePlugin({
  kind: 'format',
  name: 'links',
  description: 'Every link on the page as {text, href}: absolute http(s) URLs, deduplicated.',
  provides: ['format:links'],
  setup: () => ({
    render(doc: PageDocument): PageLink[] {
      const scope = doc.dom ?? doc.root;
      return scope ? pageLinks(scope, documentBaseUrl(doc.dom, doc.baseUrl)) : [];
    },
  }),
});
