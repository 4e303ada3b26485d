/**
 * JSON-LD blocks (`<script type="application/ld+json">`) as data: parsing with the repairs real
 * pages need, flattening of arrays, `@graph` and `mainEntity` into typed nodes, and type names
 * without their vocabulary prefix. The page metadata (document.html) and the brand and lead
 * formats read nodes through here, each picking the types it is about.
 */

export type JsonLdNode = Record<string, unknown>;

export const isNode = (value: unknown): value is JsonLdNode => typeof value === 'object' && value !== null && !Array.isArray(value);
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** CMSs often HTML-escape strings before putting them into JSON ("Tom &amp; Jerry"). */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]+));/gi, (entity, dec?: string, hex?: string, name?: string) => {
    const code = dec ? Number(dec) : hex ? parseInt(hex, 16) : NaN;
    if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    return ENTITIES[name!.toLowerCase()] ?? entity;
  });
}

/** A trimmed, entity-decoded non-empty string, else null. */
export const ldString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? decodeEntities(value.trim()) : null;

/** Parses a block; on failure retries once with raw control characters and trailing commas repaired. */
export function parseJsonLd(text: string): unknown {
  const body = text
    .replace(/^\s*(?:<!--|\/\*\s*<!\[CDATA\[\s*\*\/|\/\/\s*<!\[CDATA\[)/, '')
    .replace(/(?:-->|\/\*\s*\]\]>\s*\*\/|\/\/\s*\]\]>)\s*$/, '');
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

/** Every typed node of the JSON-LD scripts among `scripts`: arrays, `@graph` and a page's `mainEntity` included. */
export function jsonLdNodesOf(scripts: Iterable<Element>): JsonLdNode[] {
  const nodes: JsonLdNode[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 4) return;
    for (const item of asArray(value)) {
      if (!isNode(item)) continue;
      if (item['@type']) nodes.push(item);
      visit(item['@graph'], depth + 1);
      visit(item.mainEntity, depth + 1);
    }
  };
  for (const script of scripts) {
    if (!/^application\/ld\+json\b/i.test(script.getAttribute('type')?.trim() ?? '')) continue;
    visit(parseJsonLd(script.textContent ?? ''), 0);
  }
  return nodes;
}

/** `schema:NewsArticle` and `https://schema.org/NewsArticle` are both `NewsArticle`. */
export function typesOf(node: JsonLdNode): string[] {
  return asArray(node['@type'])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.replace(/^.*[/:#]/, ''));
}

/** Resolves `{"@id": …}` references to the node with that id (its own keys win). */
export function dereferencer(nodes: readonly JsonLdNode[]): (value: unknown) => unknown {
  const byId = new Map(nodes.filter((n) => typeof n['@id'] === 'string').map((n) => [n['@id'] as string, n]));
  return (value) =>
    isNode(value) && typeof value['@id'] === 'string' && byId.has(value['@id']) ? { ...byId.get(value['@id']), ...value } : value;
}

/** An image is a URL, an ImageObject (`url` or `contentUrl`), a reference to one, or a list of those. */
export function ldImageUrl(value: unknown, deref: (value: unknown) => unknown): string | null {
  for (const item of asArray(value)) {
    const image = deref(item);
    const url = typeof image === 'string' ? ldString(image) : isNode(image) ? (ldString(image.url) ?? ldString(image.contentUrl)) : null;
    if (url) return url;
  }
  return null;
}
