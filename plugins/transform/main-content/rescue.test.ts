import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const extract = (html: string) => textOf(mainContentOf(html));
const prose = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${topic} Sentence ${i + 1} goes on, with commas, clauses, and enough words to read like real prose.</p>`,
  ).join('');
const menu = (name: string) =>
  `<ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/${name}/${i}">${name} category number ${i}</a></li>`).join('')}</ul>`;

describe('hidden content kept when it is the page', () => {
  test('an empty shell around a deferred, display:none product block: the block is the content, the hidden menus and footer are not', () => {
    const html = `<html><body><header><a href="/">Shop</a></header>
      <div class="mega-menu" style="display:none">${menu('Supplements')}</div>
      <div class="product-wrapper defer-block" style="display:none"><h1>Almond thins</h1>${prose('Baked in small batches.', 12)}</div>
      <div id="hide-footer" style="display:none"><script>window.setup = "${'x'.repeat(5000)}";</script>${menu('Help')}</div>
    </body></html>`;
    const text = extract(html);
    expect(text).toContain('Baked in small batches. Sentence 6');
    expect(text).not.toContain('category number');
  });

  test('a page with visible content keeps its small hidden blocks hidden', () => {
    const html = `<html><body><article>${prose('Visible article text.', 8)}</article>
      <div class="defer-block" style="display:none">${prose('Hidden promo text.', 3)}</div></body></html>`;
    const text = extract(html);
    expect(text).toContain('Visible article text.');
    expect(text).not.toContain('Hidden promo text.');
  });
});
