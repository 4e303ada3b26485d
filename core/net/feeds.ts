/**
 * Reads the link documents sites publish, for map discovery and feed reading alike: XML sitemaps
 * (`urlset`), sitemap indexes, RSS 2.0, RSS 1.0 (RDF) and Atom feeds, and plain-text sitemaps (one
 * URL per line), gzip-compressed or not. Everything is bounded: decompression stops at the byte
 * cap, the XML parser refuses nested entity expansion and deep nesting, and entries past the
 * protocol's 50,000 per file are ignored.
 */
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { httpUrl, isHttpUrl } from './url.ts';

export interface FoundLink {
  url: string;
  title?: string;
  /** ISO 8601, from a sitemap `lastmod` or a feed entry's date. */
  lastmod?: string;
}

export interface SitemapDocument {
  kind: 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'text' | 'unknown';
  links: FoundLink[];
  /** Child sitemaps of an index. */
  sitemaps: string[];
}

/** The sitemap protocol's per-file maximum; more is hostile or broken. */
export const MAX_ENTRIES_PER_DOCUMENT = 50_000;
const MAX_TITLE_CHARS = 300;

const gunzipAsync = promisify(gunzip);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  maxNestedTags: 64,
  processEntities: { enabled: true, maxEntityCount: 20, maxTotalExpansions: 1000, maxExpandedLength: 100_000 },
  isArray: (name) => ['url', 'sitemap', 'item', 'entry', 'link'].includes(name),
});

/** The body as text, gunzipped when it starts with the gzip magic (`.xml.gz` served as a file). */
export async function sitemapText(body: Uint8Array, maxBytes: number): Promise<string> {
  let bytes = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      bytes = await gunzipAsync(body, { maxOutputLength: maxBytes });
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new Error(code === 'ERR_BUFFER_TOO_LARGE' ? `exceeds ${maxBytes} bytes after decompression` : 'is not valid gzip');
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

type Node = Record<string, unknown>;
const asArray = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** Text of an element that may carry attributes (`{'#text': …}`) or repeat. */
function textOf(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const text = typeof first === 'string' ? first : first && typeof first === 'object' ? (first as Node)['#text'] : undefined;
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  const trimmed = String(text).replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed.slice(0, MAX_TITLE_CHARS) : undefined;
}

export function isoDate(value: unknown): string | undefined {
  const text = textOf(value);
  if (!text) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function link(url: string | null, title?: string, lastmod?: string): FoundLink[] {
  if (!url) return [];
  const found: FoundLink = { url };
  if (title) found.title = title;
  if (lastmod) found.lastmod = lastmod;
  return [found];
}

const entries = (value: unknown) => asArray(value).slice(0, MAX_ENTRIES_PER_DOCUMENT) as Node[];

function atomHref(links: unknown, base: string): string | null {
  const all = asArray(links) as Node[];
  const preferred = all.find((l) => l['@_rel'] === undefined || l['@_rel'] === 'alternate') ?? all[0];
  return httpUrl(typeof preferred?.['@_href'] === 'string' ? preferred['@_href'] : undefined, base);
}

function rssItems(items: unknown, base: string): FoundLink[] {
  return entries(items).flatMap((item) =>
    link(httpUrl(textOf(item.link) ?? textOf(item.guid), base), textOf(item.title), isoDate(item.pubDate ?? item.date ?? item.updated)),
  );
}

function parseText(text: string, base: string): SitemapDocument {
  const links = text.split(/\r?\n/, MAX_ENTRIES_PER_DOCUMENT).flatMap((line) => (isHttpUrl(line.trim()) ? link(httpUrl(line, base)) : []));
  return { kind: links.length ? 'text' : 'unknown', links, sitemaps: [] };
}

/** Parses any of the supported document kinds; unknown or broken input yields no links. */
export function parseSitemapDocument(text: string, base: string): SitemapDocument {
  const head = text.trimStart().slice(0, 1);
  if (head !== '<') return parseText(text, base);
  let root: Node;
  try {
    root = parser.parse(text) as Node;
  } catch {
    return { kind: 'unknown', links: [], sitemaps: [] };
  }
  const urlset = root.urlset as Node | undefined;
  if (urlset) {
    const links = entries(urlset.url).flatMap((u) => link(httpUrl(textOf(u.loc), base), undefined, isoDate(u.lastmod)));
    return { kind: 'urlset', links, sitemaps: [] };
  }
  const index = root.sitemapindex as Node | undefined;
  if (index) {
    const sitemaps = entries(index.sitemap).flatMap((s) => httpUrl(textOf(s.loc), base) ?? []);
    return { kind: 'sitemapindex', links: [], sitemaps };
  }
  const rss = root.rss as Node | undefined;
  if (rss) return { kind: 'rss', links: rssItems((rss.channel as Node | undefined)?.item, base), sitemaps: [] };
  const rdf = root.RDF as Node | undefined;
  if (rdf) return { kind: 'rss', links: rssItems(rdf.item, base), sitemaps: [] };
  const feed = root.feed as Node | undefined;
  if (feed) {
    const links = entries(feed.entry).flatMap((e) => link(atomHref(e.link, base), textOf(e.title), isoDate(e.updated ?? e.published)));
    return { kind: 'atom', links, sitemaps: [] };
  }
  return { kind: 'unknown', links: [], sitemaps: [] };
}
