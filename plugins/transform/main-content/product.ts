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

/**
 * Is this element a product mark: a JSON-LD script or microdata item of type Product, or a buy
 * button inside a buy box (one that shows a price, a stock line, a quantity or delivery)? A buy
 * control alone proves little: a stray "Add to cart" button in a service page's head (a browser
 * moves it into the body) does not make the page a shop.
 */
export function looksLikeProduct(
  el: Element,
  tag: string,
  cls: string | null,
  itemtype = attr(el, 'itemtype'),
  id = attr(el, 'id'),
): boolean {
  if (tag === 'SCRIPT') return attr(el, 'type') === 'application/ld+json' && LD_PRODUCT.test(el.textContent ?? '');
  if (itemtype) return ITEM_PRODUCT.test(itemtype);
  return ((!!id && BUY.test(id)) || (!!cls && BUY.test(cls))) && inBuyBox(el);
}

/** A price: a currency sign or code next to an amount. */
const PRICE =
  /(?:[$€£¥₹₽]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|JPY|INR|SEK|NOK|DKK|PLN|CZK|BRL|MXN|Rs\.?|R\$|kr)\b)\s?\d|\d(?:[.,]\d{2})?\s?(?:[$€£¥₹₽]|\b(?:USD|EUR|GBP|CHF|zł|kr|Kč|Ft|lei|руб)\b)/;
/** How far up a buy box may reach (ancestors, and characters of text: a box, not the whole page). */
const BUY_BOX_LEVELS = 6;
const BUY_BOX_TEXT = 8000;
/** What else a buy box shows when it shows no price: stock, quantity, delivery. */
const BUY_BOX_WORDS = /\b(?:in stock|out of stock|unavailable|sold out|quantity|qty|delivery|shipping|ships)/i;

function inBuyBox(el: Element): boolean {
  let node: Element | null = el;
  for (let level = 0; node && level <= BUY_BOX_LEVELS; level++, node = node.parentElement) {
    if (node.tagName === 'BODY' || node.tagName === 'HTML') return false;
    const text = node.textContent ?? '';
    if (text.length > BUY_BOX_TEXT) return false;
    if (PRICE.test(text) || BUY_BOX_WORDS.test(text)) return true;
  }
  return false;
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
