/**
 * Microdata (`itemscope`/`itemprop`), used by blogs and CMS themes that predate JSON-LD. The
 * page's main item is the first Article/BlogPosting/Product scope; without one, properties are
 * read wherever they appear.
 */
import type { DomDocument } from '../../../core/dom.ts';
import { joinNames } from './people.ts';

export interface MicrodataFields {
  title: string | null;
  description: string | null;
  author: string | null;
  published: string | null;
  image: string | null;
}

const MAIN_ITEM_TYPE = /(?:Article|Posting|Product|Recipe|Review)\s*$/i;

/** A property's value per the microdata rules: the attribute that carries it depends on the element. */
export function itemValue(el: Element): string | null {
  const tag = el.tagName.toLowerCase();
  const attribute =
    tag === 'meta' ? 'content'
    : tag === 'time' ? 'datetime'
    : ['a', 'link', 'area'].includes(tag) ? 'href'
    : ['img', 'audio', 'video', 'source', 'embed', 'iframe', 'track'].includes(tag) ? 'src'
    : ['data', 'meter'].includes(tag) ? 'value'
    : null;
  const value = (attribute ? el.getAttribute(attribute) : null) ?? el.textContent;
  return value?.replace(/\s+/g, ' ').trim() || null;
}

/**
 * Properties of `scope` itself, not of items nested in it (an author's own `name`, a comment's
 * date). With no scope, every property of the document counts.
 */
function properties(scope: Element | null, dom: ParentNode, name: string): Element[] {
  const found = [...(scope ?? dom).querySelectorAll(`[itemprop~="${name}"]`)];
  return scope ? found.filter((el) => el.parentElement?.closest('[itemscope]') === scope) : found;
}

function first(scope: Element | null, dom: ParentNode, names: readonly string[]): string | null {
  for (const name of names) {
    for (const el of properties(scope, dom, name)) {
      const value = itemValue(el);
      if (value) return value;
    }
  }
  return null;
}

/** An author is text, or a Person item whose own `name` holds it. */
function authorName(el: Element): string | null {
  return (el.hasAttribute('itemscope') ? first(el, el, ['name']) : null) ?? itemValue(el);
}

export function readMicrodata(dom: DomDocument): MicrodataFields {
  const main = [...dom.querySelectorAll('[itemscope][itemtype]')].find((el) => MAIN_ITEM_TYPE.test(el.getAttribute('itemtype') ?? '')) ?? null;
  return {
    // Outside a main item, `name` belongs to breadcrumbs, brands and people, never the page.
    title: first(main, dom, main ? ['headline', 'name'] : ['headline']),
    // Outside a main item a description may be a product's or a person's, as with `name`.
    description: main ? first(main, dom, ['description', 'abstract']) : null,
    author: joinNames(properties(main, dom, 'author').map(authorName)),
    published: first(main, dom, ['datePublished', 'dateCreated']),
    image: first(main, dom, ['image', 'thumbnailUrl']),
  };
}
