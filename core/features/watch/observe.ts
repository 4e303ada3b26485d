/**
 * What a check reads beside the text, for conditions and restock: the number shown by the first
 * element matching each condition's selector ("€1.299,00", "18.50 USD", "1 234"), and whether the
 * page's offers are in stock — from JSON-LD `availability` first, then microdata
 * (`itemprop="availability"`), then plain text cues ("Sold out", "Add to cart"). Text is bounded
 * before any pattern runs, and the patterns are linear.
 */
import { parseHtmlDocument } from '../../dom.ts';
import { asArray, isNode, jsonLdNodesOf, ldString, typesOf, type JsonLdNode } from '../../json-ld.ts';
import type { Condition, Observed, StockState } from './filters.ts';

/** Characters of an element's text searched for its number. */
const NUMBER_TEXT = 200;
/** Digits with thousands/decimal separators (`.`, `,`, space, apostrophe), an optional sign. */
const NUMBER = /[-−]?\d[\d.,' \u00a0\u202f]{0,30}/;

/** The number in a piece of text, separators read the way shops write them; null when there is none. */
export function parseNumber(text: string): number | null {
  const match = NUMBER.exec(text.slice(0, NUMBER_TEXT));
  if (!match) return null;
  const negative = /^[-−]/.test(match[0]);
  let digits = match[0]
    .replace(/^[-−]/, '')
    .replace(/[' \u00a0\u202f]/g, '')
    .replace(/[.,]+$/, '');
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    // Both: the later one is the decimal separator.
    const decimal = lastDot > lastComma ? '.' : ',';
    digits = digits.replaceAll(decimal === '.' ? ',' : '.', '').replace(decimal, '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const sep = lastComma >= 0 ? ',' : '.';
    const groups = digits.split(sep);
    // "1,234" and "1.234.567" group thousands; "18,50" and "18.5" have decimals.
    const thousands = groups.length > 2 || (groups[1]!.length === 3 && groups[0]!.length <= 3 && groups[0] !== '0');
    digits = thousands ? groups.join('') : `${groups.slice(0, -1).join('')}.${groups[groups.length - 1]}`;
  }
  const value = Number(digits);
  return Number.isFinite(value) ? (negative ? -value : value) : null;
}

const IN_STOCK = new Set(['instock', 'limitedavailability', 'onlineonly', 'instoreonly']);
const OUT_OF_STOCK = new Set(['outofstock', 'soldout', 'discontinued', 'preorder', 'presale', 'backorder']);

/** `https://schema.org/InStock`, `schema:InStock`, `InStock` → in; unknown values say nothing. */
export function stockOf(availability: string): StockState | null {
  const name = availability
    .trim()
    .replace(/^.*[/:#]/, '')
    .toLowerCase();
  return IN_STOCK.has(name) ? 'in' : OUT_OF_STOCK.has(name) ? 'out' : null;
}

/** Any offer in stock makes the page in stock; otherwise any out-of-stock offer makes it out. */
function combine(states: Array<StockState | null>): StockState | null {
  return states.includes('in') ? 'in' : states.includes('out') ? 'out' : null;
}

function ldAvailability(nodes: readonly JsonLdNode[]): StockState | null {
  const states: Array<StockState | null> = [];
  const offersOf = (node: JsonLdNode) =>
    asArray(node.offers)
      .filter(isNode)
      .flatMap((o) => [o, ...asArray(o.offers).filter(isNode)]);
  for (const node of nodes) {
    const types = typesOf(node);
    const offers = types.some((t) => t === 'Offer' || t === 'AggregateOffer') ? [node, ...offersOf(node)] : offersOf(node);
    for (const offer of offers) {
      const value = ldString(offer.availability);
      if (value) states.push(stockOf(value));
    }
  }
  return combine(states);
}

const OUT_CUES = [
  'out of stock',
  'sold out',
  'currently unavailable',
  'temporarily unavailable',
  'not in stock',
  'no longer available',
  'notify me when available',
];
const IN_CUES = ['in stock', 'add to cart', 'add to basket', 'add to bag', 'buy now', 'available now'];

/** Text cues, for pages without structured data: an out-of-stock cue wins (a disabled cart button often stays). */
export function textStock(text: string): StockState | null {
  const lower = text.toLowerCase();
  if (OUT_CUES.some((cue) => lower.includes(cue))) return 'out';
  return IN_CUES.some((cue) => lower.includes(cue)) ? 'in' : null;
}

/**
 * Reads the numbers of `conditions` and (with `restock`) the stock state. `html` is the page as
 * served; `text` the watched text (markdown), for the stock cues.
 */
export function observe(html: string | undefined, text: string, conditions: readonly Condition[], restock: boolean): Observed {
  const dom = html && (conditions.length || restock) ? parseHtmlDocument(html) : null;
  const values = conditions.map((c) => {
    const el = dom?.querySelector(c.selector);
    if (!el) return null;
    const shown = el.getAttribute('content') ?? el.getAttribute('value') ?? el.textContent ?? '';
    return parseNumber(shown) ?? parseNumber(el.textContent ?? '');
  });
  let stock: StockState | null = null;
  if (restock) {
    stock = dom ? ldAvailability(jsonLdNodesOf(dom.querySelectorAll('script'))) : null;
    if (!stock && dom) {
      stock = combine(
        [...dom.querySelectorAll('[itemprop="availability"]')].map((el) =>
          stockOf(el.getAttribute('href') ?? el.getAttribute('content') ?? el.textContent ?? ''),
        ),
      );
    }
    stock ??= textStock(text);
  }
  return { values, stock };
}
