import { expect, test } from 'bun:test';
import { isControlLabel } from './facets.ts';

test('sort, filter and count labels of a listing are controls; a product name is not', () => {
  for (const t of ['Sort by:', 'Filter & Sort', '22 products', '1 - 12 of 27 Products', '( 8 results )', 'Loading...', 'Sort: Best Match']) expect(isControlLabel(t)).toBe(true);
  for (const t of ['Desktop Air Purifier Replacement Filters 3-Pack', 'Findings Sort of Books, 2005', 'Popular Products']) expect(isControlLabel(t)).toBe(false);
});
