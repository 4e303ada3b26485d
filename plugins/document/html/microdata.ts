/**
 * Microdata (`itemscope`/`itemprop`), used by blogs and CMS themes that predate JSON-LD. The
 * page's main item is the first Article/BlogPosting/Product scope; without one, properties are
 * read wherever they appear.
 */
import { itemValue, scopeOf } from '../../../core/kit.ts';
import type { DomDocument } from '../../../core/kit.ts';
import { joinNames } from './people.ts';
import { indexPage, tokens, type PageIndex } from './page-index.ts';

export interface MicrodataFields {
  title: string | null;
  description: string | null;
  author: string | null;
  published: string | null;
  image: string | null;
}

const MAIN_ITEM_TYPE = /(?:Article|Posting|Product|Recipe|Review)\s*$/i;

export { itemValue };

/** Property elements by name, in page order (an element may carry several names). */
type Properties = Map<string, Element[]>;

function byName(index: PageIndex): Properties {
  const names: Properties = new Map();
  for (const el of index.itemprops) {
    for (const name of tokens(el, 'itemprop')) {
      const list = names.get(name);
      if (list) list.push(el);
      else names.set(name, [el]);
    }
  }
  return names;
}

/**
 * Properties of `scope` itself, not of items nested in it (an author's own `name`, a comment's
 * date). With no scope, every property of the document counts.
 */
function properties(scope: Element | null, names: Properties, name: string): Element[] {
  const found = names.get(name) ?? [];
  return scope ? found.filter((el) => scopeOf(el) === scope) : found;
}

function first(scope: Element | null, names: Properties, wanted: readonly string[]): string | null {
  for (const name of wanted) {
    for (const el of properties(scope, names, name)) {
      const value = itemValue(el);
      if (value) return value;
    }
  }
  return null;
}

export function readMicrodata(dom: DomDocument, index: PageIndex = indexPage(dom)): MicrodataFields {
  const names = byName(index);
  const main = index.items.find((el) => MAIN_ITEM_TYPE.test(el.getAttribute('itemtype') ?? '')) ?? null;
  /** An author is text, or a Person item whose own `name` holds it. */
  const authorName = (el: Element) => (el.hasAttribute('itemscope') ? first(el, names, ['name']) : null) ?? itemValue(el);
  return {
    // Outside a main item, `name` belongs to breadcrumbs, brands and people, never the page.
    title: first(main, names, main ? ['headline', 'name'] : ['headline']),
    // Outside a main item a description may be a product's or a person's, as with `name`.
    description: main ? first(main, names, ['description', 'abstract']) : null,
    author: joinNames(properties(main, names, 'author').map(authorName)),
    published: first(main, names, ['datePublished', 'dateCreated']),
    image: first(main, names, ['image', 'thumbnailUrl']),
  };
}
