// Request selectors are validated up front: an unparsable one, a dangling combinator or one past a
// limit is a 400 naming the field, index and limit.
import { expect, test } from 'bun:test';
import { SELECTOR_LIMITS, validateSelectors } from './selectors.ts';

const check =
  (selectors: string[], field = 'include_selectors') =>
  () =>
    validateSelectors(field, selectors);

test('bad selectors and dangling combinators are 400s naming the field and index; valid ones pass', () => {
  expect(check(['p', 'div >'], 'exclude_selectors')).toThrow('Invalid field exclude_selectors[1]: invalid CSS selector "div >"');
  expect(check(['> p'], 'exclude_selectors')).toThrow('Invalid field exclude_selectors[0]');
  expect(check(['div[['])).toThrow('Invalid field include_selectors[0]: invalid CSS selector "div[["');
  expect(check([':no-such-pseudo'])).toThrow('Invalid field include_selectors[0]: invalid CSS selector');
  expect(
    check([
      'div > p',
      'a[href$=">"]',
      'li:nth-child(2n+1)',
      'tr:nth-last-child(-n+3)',
      ':nth-child(odd of .row)',
      'div:not(:has(img))',
      'h1, h2, h3, h4, h5, h6',
    ]),
  ).not.toThrow();
});

test('a selector longer than the limit is refused before it is parsed', () => {
  expect(check([`.${'a'.repeat(SELECTOR_LIMITS.length)}`])).toThrow(
    `Invalid field include_selectors[0]: selector is longer than ${SELECTOR_LIMITS.length} characters`,
  );
  expect(check([`.${'a'.repeat(SELECTOR_LIMITS.length - 1)}`])).not.toThrow();
});

test('more selectors than the list allows', () => {
  expect(check(Array(SELECTOR_LIMITS.count + 1).fill('p'), 'attribute_selectors')).toThrow(
    `Invalid field attribute_selectors: at most ${SELECTOR_LIMITS.count} selectors`,
  );
  expect(check(Array(SELECTOR_LIMITS.count).fill('p'))).not.toThrow();
});

test('alternatives: per selector, inside :is()/:not() lists too, and across the field', () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => `.c${i}`).join(', ');
  expect(check([list(SELECTOR_LIMITS.alternatives)])).not.toThrow();
  expect(check(['p', list(SELECTOR_LIMITS.alternatives + 1)])).toThrow(
    `Invalid field include_selectors[1]: selector has more than ${SELECTOR_LIMITS.alternatives} alternatives`,
  );
  expect(check([`:is(${list(SELECTOR_LIMITS.alternatives)})`])).toThrow('selector has more than 50 alternatives');
  expect(check([Array(1_000).fill('a').join(',')])).toThrow('selector has more than 50 alternatives');
  expect(check([list(5_000)])).toThrow('selector is longer than');
  expect(check([list(40), list(40), list(40)])).toThrow(
    `Invalid field include_selectors[2]: the selectors have more than ${SELECTOR_LIMITS.alternativesPerField} alternatives in all`,
  );
});

test('combinators in one alternative', () => {
  const chain = (n: number) =>
    Array(n + 1)
      .fill('div')
      .join(' > ');
  expect(check([chain(SELECTOR_LIMITS.combinators)])).not.toThrow();
  expect(check([chain(SELECTOR_LIMITS.combinators + 1)])).toThrow(
    `Invalid field include_selectors[0]: selector has more than ${SELECTOR_LIMITS.combinators} combinators in one alternative`,
  );
});

test('pseudo-class nesting depth, :nth-child(… of S) included', () => {
  expect(check([':not(:not(:not(p)))'])).not.toThrow();
  expect(check([':not(:not(:not(:not(p))))'])).toThrow(
    `Invalid field include_selectors[0]: selector nests pseudo-classes more than ${SELECTOR_LIMITS.nesting} deep`,
  );
  expect(check([':is(:has(:not(:nth-child(2n of :is(p)))))'])).toThrow('more than 3 deep');
});

test(':nth-*() arguments with numbers past the limit', () => {
  expect(check([':nth-child(9999999999999n+1)'])).toThrow(
    'Invalid field include_selectors[0]: :nth-child() argument out of range (numbers up to 10000)',
  );
  expect(check(['li:nth-last-of-type(-n+20001)'])).toThrow(':nth-last-of-type() argument out of range');
  expect(check([':nth-child(1 of :nth-child(99999))'])).toThrow(':nth-child() argument out of range');
  expect(check([':nth-of-type(10000n-10000)', ':nth-child(even)'])).not.toThrow();
});

test('validation is quick even for the worst input the limits allow', () => {
  const nested = Array.from({ length: 12 }, () => ':not(:has(:is(div > p ~ a[href*="x"]))), :is(:not(p))');
  const chains = Array.from({ length: SELECTOR_LIMITS.count }, () =>
    Array(SELECTOR_LIMITS.combinators + 1)
      .fill('div.x')
      .join(' > '),
  );
  const t0 = performance.now();
  expect(check(nested)).not.toThrow();
  expect(check(chains, 'exclude_selectors')).not.toThrow();
  expect(
    check([
      Array.from({ length: 5_000 }, (_, i) => `.c${i}`)
        .join(', ')
        .slice(0, SELECTOR_LIMITS.length),
    ]),
  ).toThrow();
  expect(performance.now() - t0).toBeLessThan(500);
});

test(':has() starting at a sibling is refused up front, naming the selector; :has() over descendants and plain sibling combinators pass', () => {
  expect(check(['p:has(~ p ~ p)'], 'exclude_selectors')).toThrow(
    'Invalid field exclude_selectors[0]: "p:has(~ p ~ p)": :has() with a sibling combinator',
  );
  expect(check(['h2:has(+ p)'])).toThrow(':has() with a sibling combinator');
  expect(check(['div:not(:has(~ p))'])).toThrow(':has() with a sibling combinator');
  expect(check(['div:has(> img)', 'div:has(p ~ p)', 'h2 + p', 'h2 ~ p', 'li:has(a)'])).not.toThrow();
});
