/**
 * `<meta>` tags of the page (Open Graph, Twitter cards, Dublin Core, plain `name=` tags), read
 * once into a lookup so each metadata field can ask for its keys in priority order.
 */
import type { DomDocument } from '../../../core/kit.ts';
import { indexPage, type PageIndex } from './page-index.ts';

export type MetaTags = ReadonlyMap<string, string>;

/** Keys are lower-cased `property`, `name` or `http-equiv`; the first non-empty value wins (og:image repeats). */
export function readMetaTags(dom: DomDocument, index: PageIndex = indexPage(dom)): MetaTags {
  const tags = new Map<string, string>();
  for (const meta of index.metas) {
    const content = meta.getAttribute('content')?.trim();
    if (!content) continue;
    for (const attribute of ['property', 'name', 'http-equiv']) {
      const key = meta.getAttribute(attribute)?.trim().toLowerCase();
      if (key && !tags.has(key)) tags.set(key, content);
    }
  }
  return tags;
}

/** The value of the first key present. */
export function metaValue(tags: MetaTags, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = tags.get(key);
    if (value) return value;
  }
  return null;
}

/** Every value of a repeatable tag (`citation_author` once per author), in page order. */
export function metaValues(dom: DomDocument, key: string, index: PageIndex = indexPage(dom)): string[] {
  return index.metas
    .filter((meta) => meta.getAttribute('name')?.trim().toLowerCase() === key)
    .map((meta) => meta.getAttribute('content')!.trim())
    .filter(Boolean);
}

/** Scholarly tags (Google Scholar's `citation_author`) write names "Last, First"; a byline reads "First Last". */
export function scholarName(name: string): string {
  const parts = name.split(',').map((p) => p.trim());
  return parts.length === 2 && parts[0] && parts[1] ? `${parts[1]} ${parts[0]}` : name;
}

/** Keys per field, most specific first. */
export const META_KEYS = {
  title: ['og:title', 'twitter:title', 'citation_title', 'dc.title', 'dcterms.title'],
  description: ['og:description', 'description', 'twitter:description', 'dc.description'],
  author: ['author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator', 'dcterms.creator', 'byl'],
  published: [
    'article:published_time',
    'og:published_time',
    'datepublished',
    'date',
    'pubdate',
    'publishdate',
    'publish-date',
    'publish_date',
    'dc.date.issued',
    'dcterms.issued',
    'dc.date',
    'dcterms.date',
    'parsely-pub-date',
    'sailthru.date',
    'citation_publication_date',
    'citation_date',
  ],
  image: ['og:image:secure_url', 'og:image:url', 'og:image', 'twitter:image', 'twitter:image:src'],
  siteName: ['og:site_name', 'citation_journal_title'],
  applicationName: ['application-name', 'apple-mobile-web-app-title'],
  language: ['content-language', 'og:locale', 'dc.language', 'language'],
} as const;
