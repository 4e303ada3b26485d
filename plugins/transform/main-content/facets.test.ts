import { expect, test } from 'bun:test';
import { isControlLabel } from './facets.ts';

test('sort, filter and count labels of a listing are controls; a product name is not', () => {
  for (const t of ['Sort by:', 'Filter & Sort', '22 products', '1 - 12 of 27 Products', '( 8 results )', 'Loading...', 'Sort: Best Match'])
    expect(isControlLabel(t)).toBe(true);
  for (const t of ['Desktop Air Purifier Replacement Filters 3-Pack', 'Findings Sort of Books, 2005', 'Popular Products'])
    expect(isControlLabel(t)).toBe(false);
});

test('a collection keeps its products and loses its facet panel, sort menu and count', async () => {
  const { parseHtmlDocument } = await import('../../../core/kit.ts');
  const { extractMainContent } = await import('./main-content.ts');
  const card = (i: number) =>
    `<li class="grid__item"><a href="/p/${i}"><img src="/i/${i}.jpg"></a><h3><a href="/p/${i}">Hand-thrown stoneware mug number ${i}</a></h3><p>A glazed stoneware mug, made by hand in a small studio, holds 350 ml.</p><span>$${20 + i}.00</span></li>`;
  const html = `<html><head><title>Mugs</title></head><body><header><a href="/">Shop</a></header><main>
    <div class="collection-toolbar"><div class="facets-wrapper"><details><summary>Colour</summary><ul><li><label><input type="checkbox">Blue (4)</label></li><li><label><input type="checkbox">Green (2)</label></li></ul></details></div>
    <div class="d-flex"><p>12 products</p><label>Sort by:</label></div></div>
    <ul class="product-grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul></main><footer>© Shop</footer></body></html>`;
  const text = extractMainContent(parseHtmlDocument(html).body).textContent ?? '';
  expect(text).toContain('Hand-thrown stoneware mug number 11');
  expect(text).not.toContain('Sort by');
  expect(text).not.toContain('12 products');
  expect(text).not.toContain('Green (2)');
});
