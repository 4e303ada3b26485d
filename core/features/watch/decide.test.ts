import { expect, test } from 'bun:test';
import { conditionMet, lineHash, rememberLines } from './decide.ts';
import { observe, parseNumber, stockOf, textStock } from './observe.ts';

test('numbers are read the way shops write them', () => {
  expect(
    ['€18.50', '18,50 €', '€1.299,00', '$1,299.00', '1 234 views', "CHF 1'250.–", 'now 20', 'Price: 0.99', '−4,5 °C'].map(parseNumber),
  ).toEqual([18.5, 18.5, 1299, 1299, 1234, 1250, 20, 0.99, -4.5]);
  expect(parseNumber('sold out')).toBeNull();
  // Bounded: a huge run of digits and separators is cut, never scanned whole.
  const started = performance.now();
  expect(parseNumber(`${'1,'.repeat(500_000)}`)).toEqual(expect.any(Number));
  expect(performance.now() - started).toBeLessThan(100);
});

test('conditions fire when the number crosses a bound or moves by the percentage', () => {
  const below = { selector: '.price', below: 20 };
  expect(conditionMet(below, 18.5, 22)).toBe('.price 18.5 below 20');
  expect(conditionMet(below, 18.5, null)).toBe('.price 18.5 below 20');
  expect(conditionMet(below, 18, 18.5)).toBeNull();
  expect(conditionMet(below, null, 22)).toBeNull();
  expect(conditionMet({ selector: 'b', above: 50 }, 55, 50)).toBe('b 55 above 50');
  const percent = { selector: 'b', changePercent: 10 };
  expect(conditionMet(percent, 89, 100)).toBe('b 100 → 89 (-11%)');
  expect(conditionMet(percent, 95, 100)).toBeNull();
  expect(conditionMet(percent, 5, 0)).toBeNull();
});

test('stock from JSON-LD, then microdata, then text', () => {
  expect(
    ['https://schema.org/InStock', 'schema:OutOfStock', 'SoldOut', 'http://schema.org/LimitedAvailability', 'Weird'].map(stockOf),
  ).toEqual(['in', 'out', 'out', 'in', null]);
  const ld = (availability: string) =>
    `<script type="application/ld+json">{"@type":"Product","offers":[{"@type":"Offer","availability":"${availability}"}]}</script>`;
  expect(
    observe(`<html><head>${ld('https://schema.org/OutOfStock')}</head><body>Add to cart</body></html>`, 'Add to cart', [], true).stock,
  ).toBe('out');
  expect(observe('<div itemscope><link itemprop="availability" href="https://schema.org/InStock"></div>', 'Sold out', [], true).stock).toBe(
    'in',
  );
  expect(observe('<p>Sold out</p>', 'Sold out', [], true).stock).toBe('out');
  expect(textStock('Currently unavailable. Add to basket')).toBe('out');
  expect(textStock('In stock — add to basket')).toBe('in');
  expect(textStock('A fine kettle')).toBeNull();
  expect(
    observe(
      '<p class="price" content="12.50">12,50 €</p><p class="price">99</p>',
      '',
      [
        { selector: '.price', below: 1 },
        { selector: '.none', above: 1 },
      ],
      false,
    ),
  ).toEqual({ values: [12.5, null], stock: null });
});

test('the seen-lines memory keeps the newest hashes up to its bound', () => {
  const first = rememberLines([], ['a', 'b', 'a'], 3);
  expect(first).toEqual([lineHash('a'), lineHash('b')]);
  expect(rememberLines(first, ['b', 'c', 'd'], 3)).toEqual([lineHash('b'), lineHash('c'), lineHash('d')]);
});
