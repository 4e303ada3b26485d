/**
 * Page metadata from the best source available. Per field, sources are tried in this order
 * (the first non-empty value wins):
 *
 * - title: og:title, twitter:title, citation/Dublin Core title, JSON-LD headline/name, microdata
 *   headline, `<title>`, first `<h1>` (OG first because `<title>` usually carries a " | Site" suffix)
 * - description: og:description, meta description, twitter:description, JSON-LD description,
 *   microdata description
 * - author: JSON-LD author(s), meta author tags, every `citation_author` (scholarly pages),
 *   microdata author, visible byline
 * - publishedDate: JSON-LD datePublished, meta date tags (article:published_time …),
 *   microdata datePublished, `<time datetime>`, a visible dateline; normalised to ISO 8601
 * - language: `<html lang>`, Content-Language header, meta content-language / og:locale, JSON-LD inLanguage
 * - siteName: og:site_name, citation_journal_title, JSON-LD publisher, JSON-LD WebSite name,
 *   application-name
 * - image: og:image, twitter:image, JSON-LD image, microdata image, `<link rel="image_src">`; absolute http(s)
 * - favicon: largest declared icon, else /favicon.ico of the page's origin (checked by the pipeline before it is answered)
 *
 * `readPage` also lists the schema.org types the page declares, which main content tells the
 * page's type by (SCHEMA_TYPES in core/data-bag.ts).
 */
import { absoluteUrl, baseUrlFrom, isHttpUrl } from '../../../core/kit.ts';
import type { DomDocument, JsonLdNode, Metadata } from '../../../core/kit.ts';
import { META_KEYS, metaValue, metaValues, readMetaTags, scholarName } from './meta-tags.ts';
import { jsonLdNodes, readJsonLd, typesOf } from './json-ld.ts';
import { readMicrodata } from './microdata.ts';
import { readByline } from './byline.ts';
import { readDateline } from './dateline.ts';
import { joinNames } from './people.ts';
import { normaliseDate } from './dates.ts';
import { pickFavicon } from './favicon.ts';
import { indexPage, tokens, type PageIndex } from './page-index.ts';

export type PageMetadata = Omit<Metadata, 'wordCount'>;

export interface MetadataSource {
  dom: DomDocument;
  /** Final URL of the page. */
  pageUrl: string;
  /** Response headers, lower-cased names. */
  headers: Readonly<Record<string, string>>;
}

/** The first value that is a non-empty string after collapsing whitespace. */
export function firstText(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const text = value?.replace(/\s+/g, ' ').trim();
    if (text) return text;
  }
  return null;
}

/** `en_US` (og:locale) and `en-us` become `en-US`; a header list ("en, de") gives its first entry. */
export function normaliseLanguage(value: string | null | undefined): string | null {
  const code = value?.split(',')[0]?.trim().replace(/_/g, '-');
  if (!code || !/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i.test(code)) return null;
  const [primary, ...rest] = code.split('-');
  return [primary!.toLowerCase(), ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part))].join('-');
}

/** `time[pubdate][datetime]`, `article time[datetime]` or `header time[datetime]`, else any `time[datetime]`. */
function publishedFromTimeElements(index: PageIndex): string | null {
  const dated = index.times.filter((t) => t.hasAttribute('datetime'));
  const time = dated.find((t) => t.hasAttribute('pubdate') || t.parentElement?.closest('article, header')) ?? dated[0];
  return time?.getAttribute('datetime') ?? null;
}

function firstDate(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const date = normaliseDate(value);
    if (date) return date;
  }
  return null;
}

function firstHttpUrl(base: string, ...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const url = absoluteUrl(value, base);
    if (url && isHttpUrl(url)) return url;
  }
  return null;
}

/** The page's metadata and the schema.org types it declares (see SCHEMA_TYPES in core/data-bag.ts). */
export function readPage(source: MetadataSource): { metadata: PageMetadata; schemaTypes: string[] } {
  // one walk gathers what every source below reads
  const index = indexPage(source.dom);
  const ld = jsonLdNodes(index);
  return { metadata: metadataOf(source, index, ld), schemaTypes: schemaTypesOf(index, ld) };
}

export const extractMetadata = (source: MetadataSource): PageMetadata => readPage(source).metadata;

function schemaTypesOf(index: PageIndex, ld: JsonLdNode[]): string[] {
  const types = ld.flatMap(typesOf);
  for (const item of index.items)
    for (const t of (item.getAttribute('itemtype') ?? '').split(/\s+/)) if (t) types.push(t.replace(/^.*[/:#]/, ''));
  return types;
}

function metadataOf({ dom, pageUrl, headers }: MetadataSource, index: PageIndex, nodes: JsonLdNode[]): PageMetadata {
  const meta = readMetaTags(dom, index);
  const ld = readJsonLd(dom, index, nodes);
  const micro = readMicrodata(dom, index);
  const base = baseUrlFrom(index.base?.getAttribute('href'), pageUrl);
  const tag = (field: keyof typeof META_KEYS) => metaValue(meta, META_KEYS[field]);
  const imageSrc = index.links.find((link) => tokens(link, 'rel').some((rel) => rel.toLowerCase() === 'image_src'));
  return {
    title: firstText(tag('title'), ld.title, micro.title, index.title?.textContent, index.h1?.textContent) ?? '',
    description: firstText(tag('description'), ld.description, micro.description) ?? '',
    author:
      ld.author ??
      joinNames([tag('author')]) ??
      joinNames(metaValues(dom, 'citation_author', index).map(scholarName)) ??
      micro.author ??
      readByline(dom, index),
    // The dateline is read only when needed: it is the one source that walks the page's text.
    publishedDate: firstDate(ld.published, tag('published'), micro.published, publishedFromTimeElements(index)) ?? readDateline(dom, index),
    language:
      [dom.documentElement?.getAttribute('lang'), headers['content-language'], tag('language'), ld.language]
        .map(normaliseLanguage)
        .find(Boolean) ?? null,
    siteName: firstText(tag('siteName'), ld.publisher, ld.websiteName, tag('applicationName')),
    image: firstHttpUrl(base, tag('image'), ld.image, micro.image, imageSrc?.getAttribute('href')),
    favicon: pickFavicon(dom, base, pageUrl, index),
  };
}
