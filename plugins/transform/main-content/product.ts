/**
 * Product page recognition (schema.org Product in JSON-LD or microdata, og:type product). On a
 * product page the description, specs and buying box are the content, while customer reviews
 * and seller feedback are not (they can outweigh the description many times over).
 */
import { attr } from './walk.ts';

const LD_PRODUCT = /"@type"\s*:\s*\[?\s*"(?:Product|ProductGroup|IndividualProduct)"/;
const ITEM_PRODUCT = /schema\.org\/(?:Product|ProductGroup|IndividualProduct)$/;
/** A buying control: shops without structured data still have one. */
const BUY = /add-?to-?(?:cart|bag|basket)|addtocart|buy-?box|buy-?now/i;

/** Is this element a product mark: a JSON-LD script or microdata item of type Product, or a buy button? */
export function looksLikeProduct(el: Element, tag: string, cls: string | null): boolean {
  if (tag === 'SCRIPT') return attr(el, 'type') === 'application/ld+json' && LD_PRODUCT.test(el.textContent ?? '');
  const itemtype = attr(el, 'itemtype');
  if (itemtype) return ITEM_PRODUCT.test(itemtype);
  const id = attr(el, 'id');
  if (id && BUY.test(id)) return true;
  return !!cls && BUY.test(cls);
}

/** Decides from the body scan's product marks and the head's JSON-LD and og:type. */
export function isProductPage(doc: Document, productHits: number): boolean {
  if (productHits > 0) return true;
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName === 'META' && attr(c, 'property') === 'og:type' && /^(?:og:)?product/i.test(attr(c, 'content') ?? '')) return true;
    if (c.tagName === 'SCRIPT' && looksLikeProduct(c, 'SCRIPT', null)) return true;
  }
  return false;
}
