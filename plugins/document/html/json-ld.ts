/**
 * JSON-LD (`<script type="application/ld+json">`): the most structured metadata a page offers.
 * Blocks may hold one object, an array, or an `@graph` whose nodes point at each other by `@id`
 * (an Article's author is often `{"@id": "#/person/1"}`); all of that is flattened and resolved.
 */
import {
  asArray,
  decodeEntities,
  dereferencer,
  isNode,
  jsonLdNodesOf,
  ldImageUrl,
  ldString,
  parseJsonLd,
  typesOf,
} from '../../../core/kit.ts';
import type { DomDocument, JsonLdNode } from '../../../core/kit.ts';
import { indexPage, type PageIndex } from './page-index.ts';
import { joinNames } from './people.ts';

type Node = JsonLdNode;

export { decodeEntities, parseJsonLd };

const str = ldString;

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

/** Every typed node of every block: arrays, `@graph` and a page's `mainEntity` included. */
export function jsonLdNodes(index: PageIndex): Node[] {
  return jsonLdNodesOf(index.typedScripts);
}

export { typesOf };

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

/** `nodes` when the caller has them already (each block parsed once per page). */
export function readJsonLd(dom: DomDocument, index: PageIndex = indexPage(dom), nodes: Node[] = jsonLdNodes(index)): LinkedData {
  const deref = dereferencer(nodes);
  const primary = primaryNode(nodes);
  const website = nodes.find((node) => typesOf(node).includes('WebSite'));
  const get = (key: string) => (primary ? deref(primary[key]) : undefined);
  return {
    title: str(get('headline')) ?? str(get('name')),
    description: str(get('description')),
    author: joinNames(asArray(get('author')).map((a) => nameOf(deref(a)))),
    published: str(get('datePublished')) ?? str(get('dateCreated')),
    image: ldImageUrl(get('image'), deref),
    publisher:
      asArray(get('publisher'))
        .map((p) => nameOf(deref(p)))
        .find((name) => name !== null) ?? null,
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
  return typeof value === 'string' ? str(value) : isNode(value) ? (str(value.alternateName) ?? str(value.name)) : null;
}
