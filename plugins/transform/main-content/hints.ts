/**
 * What a page says about its own kind outside its content: the head's og:type and generator, the
 * template classes on `<body>`, the schema.org types, date and author it declares (read by the HTML
 * document plugin) and its URL. The page
 * type (page-type.ts) weighs these against what the extraction found.
 */
import type { Metadata } from '../../../core/kit.ts';
import { attr } from './walk.ts';

export interface PageHints {
  /** og:type, lower-cased ("article", "product", "website"), or ''. */
  ogType: string;
  /** The generator meta tag (CMS, docs or forum software), or ''. */
  generator: string;
  /**
   * The classes of `<body>` and `<html>`, lower-cased: CMSs name the page's template there
   * (WordPress "single-post" / "page-id-7" / "archive", WooCommerce and Magento product and
   * category pages, Drupal node types, Shopify templates).
   */
  bodyClass: string;
  /** schema.org types, one per JSON-LD node and microdata item (repeats kept). */
  schemaTypes: readonly string[];
  /** The page names a publication date, an author (the HTML document plugin's metadata): what articles and posts carry. */
  dated: boolean;
  authored: boolean;
  /** The URL's host, lower-cased, or ''. */
  host: string;
  /** The URL's path and query, lower-cased, or ''. */
  path: string;
}

export function pageHints(
  page: Document | null | undefined,
  url: string | undefined,
  schemaTypes: readonly string[],
  metadata: Pick<Metadata, 'publishedDate' | 'author'>,
): PageHints {
  let ogType = '';
  let generator = '';
  for (let c = page?.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName !== 'META') continue;
    if (!ogType && attr(c, 'property') === 'og:type') ogType = (attr(c, 'content') ?? '').trim().toLowerCase();
    else if (!generator && attr(c, 'name')?.toLowerCase() === 'generator') generator = attr(c, 'content') ?? '';
  }
  const classOf = (el: Element | null | undefined) => (el ? (attr(el, 'class') ?? '') : '');
  const bodyClass = `${classOf(page?.body)} ${classOf(page?.documentElement)}`.trim().toLowerCase();
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i.exec(url ?? '');
  return {
    ogType,
    generator,
    bodyClass,
    schemaTypes,
    dated: !!metadata.publishedDate,
    authored: !!metadata.author,
    host: (m?.[1] ?? '').toLowerCase(),
    path: (m?.[2] ?? '').toLowerCase(),
  };
}
