/**
 * JSON-LD (`<script type="application/ld+json">`): the most structured metadata a page offers.
 * Blocks may hold one object, an array, or an `@graph` whose nodes point at each other by `@id`
 * (an Article's author is often `{"@id": "#/person/1"}`); all of that is flattened and resolved.
 */
import type { DomDocument } from '../../../core/dom.ts';
import { indexPage, type PageIndex } from './page-index.ts';
import { joinNames } from './people.ts';

type Node = Record<string, unknown>;

export interface LinkedData {
  title: string | null;
  description: string | null;
  author: string | null;
  published: string | null;
  image: string | null;
  publisher: string | null;
  websiteName: string | null;
  language: string | null;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** CMSs often HTML-escape strings before putting them into JSON ("Tom &amp; Jerry"). */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]+));/gi, (entity, dec?: string, hex?: string, name?: string) => {
    const code = dec ? Number(dec) : hex ? parseInt(hex, 16) : NaN;
    if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    return ENTITIES[name!.toLowerCase()] ?? entity;
  });
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? decodeEntities(value.trim()) : null);

/** Parses a block; on failure retries once with raw control characters and trailing commas repaired. */
export function parseJsonLd(text: string): unknown {
  const body = text.replace(/^\s*(?:<!--|\/\*\s*<!\[CDATA\[\s*\*\/|\/\/\s*<!\[CDATA\[)/, '').replace(/(?:-->|\/\*\s*\]\]>\s*\*\/|\/\/\s*\]\]>)\s*$/, '');
  try {
    return JSON.parse(body);
  } catch {
    try {
      return JSON.parse(body.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return null;
    }
  }
}

/** Every typed node of every block: arrays, `@graph` and a page's `mainEntity` included. */
export function jsonLdNodes(index: PageIndex): Node[] {
  const nodes: Node[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 4) return;
    for (const item of asArray(value)) {
      if (!isNode(item)) continue;
      if (item['@type']) nodes.push(item);
      visit(item['@graph'], depth + 1);
      visit(item.mainEntity, depth + 1);
    }
  };
  for (const script of index.typedScripts) {
    if (!/^application\/ld\+json\b/i.test(script.getAttribute('type')?.trim() ?? '')) continue;
    visit(parseJsonLd(script.textContent ?? ''), 0);
  }
  return nodes;
}

/** `schema:NewsArticle` and `https://schema.org/NewsArticle` are both `NewsArticle`. */
export function typesOf(node: Node): string[] {
  return asArray(node['@type']).filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^.*[/:#]/, ''));
}

const PRIMARY_KINDS: ReadonlyArray<(type: string) => boolean> = [
  (t) => /Article$|Posting$|^Report$/.test(t),
  (t) => t === 'Product',
  (t) => /Page$/.test(t),
];

/** The node the page is about: an article beats a product beats a web page. */
export function primaryNode(nodes: Node[]): Node | null {
  for (const matches of PRIMARY_KINDS) {
    const found = nodes.find((node) => typesOf(node).some(matches));
    if (found) return found;
  }
  return null;
}

export function readJsonLd(dom: DomDocument, index: PageIndex = indexPage(dom)): LinkedData {
  const nodes = jsonLdNodes(index);
  const byId = new Map(nodes.filter((n) => typeof n['@id'] === 'string').map((n) => [n['@id'] as string, n]));
  const deref = (value: unknown): unknown => (isNode(value) && typeof value['@id'] === 'string' && byId.has(value['@id']) ? { ...byId.get(value['@id']), ...value } : value);
  const primary = primaryNode(nodes);
  const website = nodes.find((node) => typesOf(node).includes('WebSite'));
  const get = (key: string) => (primary ? deref(primary[key]) : undefined);
  return {
    title: str(get('headline')) ?? str(get('name')),
    description: str(get('description')),
    author: joinNames(asArray(get('author')).map((a) => nameOf(deref(a)))),
    published: str(get('datePublished')) ?? str(get('dateCreated')),
    image: urlOf(get('image'), deref),
    publisher: asArray(get('publisher')).map((p) => nameOf(deref(p))).find((name) => name !== null) ?? null,
    websiteName: website ? str(website.name) : null,
    language: languageOf(get('inLanguage')),
  };
}

function nameOf(value: unknown): string | null {
  if (typeof value === 'string') return str(value);
  if (!isNode(value)) return null;
  return str(value.name) ?? str([value.givenName, value.familyName].filter((p) => typeof p === 'string').join(' '));
}

/** `inLanguage` is a code or a Language node. */
function languageOf(value: unknown): string | null {
  return typeof value === 'string' ? str(value) : isNode(value) ? str(value.alternateName) ?? str(value.name) : null;
}

/** An image is a URL, an ImageObject (`url` or `contentUrl`), a reference to one, or a list of those. */
function urlOf(value: unknown, deref: (value: unknown) => unknown): string | null {
  for (const item of asArray(value)) {
    const image = deref(item);
    const url = typeof image === 'string' ? str(image) : isNode(image) ? str(image.url) ?? str(image.contentUrl) : null;
    if (url) return url;
  }
  return null;
}
