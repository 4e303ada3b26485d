/**
 * URL helpers shared by every plugin that turns page-relative references into absolute URLs
 * (URL resolution, links, metadata, assets), so they all agree on the base a browser would use.
 */
import type { DomDocument } from '../../../core/dom.ts';

export const isHttpUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/** Resolves `value` against `base`; null for empty or unparseable values. */
export function absoluteUrl(value: string | null | undefined, base: string): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

/**
 * The base relative URLs resolve against: the first `<base href>` (itself relative to the page
 * URL), as browsers do; a `javascript:`/`data:` base is ignored because it cannot anchor links.
 */
export function documentBaseUrl(dom: DomDocument | null, pageUrl: string): string {
  const declared = absoluteUrl(dom?.querySelector('base[href]')?.getAttribute('href'), pageUrl);
  return declared && isHttpUrl(declared) ? declared : pageUrl;
}
