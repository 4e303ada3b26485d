// Request selectors are validated up front: an unparsable one, or a dangling combinator, is a 400 naming the field and index.
import { expect, test } from 'bun:test';
import { parseHtmlDocument } from './dom.ts';
import { validateSelectors } from './selectors.ts';

test('bad selectors and dangling combinators are 400s naming the field and index; valid ones pass', () => {
  const body = parseHtmlDocument('<p>x</p>').body;
  expect(() => validateSelectors('exclude_selectors', ['p', 'div >'], body)).toThrow('Invalid field exclude_selectors[1]: invalid CSS selector "div >"');
  expect(() => validateSelectors('exclude_selectors', ['> p'], body)).toThrow('Invalid field exclude_selectors[0]');
  expect(() => validateSelectors('include_selectors', ['div[['], body)).toThrow('Invalid field include_selectors[0]: invalid CSS selector "div[["');
  expect(() => validateSelectors('include_selectors', ['div > p', 'a[href$=">"]', 'li:nth-child(2n+1)'], body)).not.toThrow();
});
