// The page's headline stays at the top of its main content, wherever the page puts its <h1>.
import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const extract = (html: string, url = 'https://example.org/page') => textOf(mainContentOf(html, { url }));
const firstLine = (text: string) => text.split('\n')[0];

const prose = (n: number, about: string) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} about ${about}: it explains in plain words what a reader needs to know, with enough detail to stand on its own as a paragraph.</p>`,
  ).join('\n');

const shell = (title: string, body: string, site = 'Example Works') => `<!doctype html><html><head><title>${title} | ${site}</title>
  <meta property="og:title" content="${title}"></head><body>
  <header><h1 class="logo"><a href="/">${site}</a></h1><nav><a href="/">Home</a> <a href="/docs/">Docs</a> <a href="/shop/">Shop</a></nav></header>
  ${body}
  <footer><p>© ${site}</p><a href="/privacy">Privacy</a></footer></body></html>`;

describe('the headline stays', () => {
  test('an article whose <h1> sits in a header band above the body column', () => {
    const html = shell(
      'Storm closes the harbour for a week',
      `
      <div class="hero"><span class="kicker">News</span><h1>Storm closes the harbour for a week</h1></div>
      <div class="columns"><div class="story">${prose(5, 'the storm')}</div>
      <aside><h3>Most read</h3><ul><li><a href="/a">Another story</a></li><li><a href="/b">And another</a></li></ul></aside></div>`,
    );
    const text = extract(html, 'https://example.org/news/2026/storm');
    expect(firstLine(text)).toBe('Storm closes the harbour for a week');
    expect(text).toContain('Paragraph 5 about the storm');
    expect(text.match(/Storm closes the harbour/g)).toHaveLength(1);
  });

  test('a docs page whose <h1> repeats its <title> inside the article', () => {
    const html = shell('Docs Page 1', `<main><article><h1>Docs Page 1</h1>${prose(3, 'the setup')}</article></main>`);
    expect(firstLine(extract(html, 'https://example.org/docs/page-1'))).toBe('Docs Page 1');
  });

  test('a product page whose name stands beside the description', () => {
    const html = shell(
      'Brass ship lantern',
      `<main><div class="product">
      <div class="buy"><h1>Brass ship lantern</h1><p class="price">$49.00</p><p>In stock</p><button>Add to cart</button></div>
      <div class="description">${prose(3, 'the lantern')}</div></div></main>`,
    );
    const text = extract(html, 'https://example.org/shop/brass-ship-lantern');
    expect(firstLine(text)).toBe('Brass ship lantern');
    expect(text).toContain('Paragraph 3 about the lantern');
  });

  test('a listing keeps its heading above the items', () => {
    const items = Array.from(
      { length: 8 },
      (_, i) =>
        `<li><a href="/shop/item-${i}">Harbour lamp model ${i}</a><p>A lamp for a small boat, model ${i}, with a brass hood.</p></li>`,
    ).join('');
    const html = shell(
      'Lamps and lanterns',
      `<main><div class="top"><h1>Lamps and lanterns</h1></div><div class="grid"><ul>${items}</ul></div></main>`,
    );
    const text = extract(html, 'https://example.org/shop/lamps/');
    expect(firstLine(text)).toBe('Lamps and lanterns');
    expect(text).toContain('Harbour lamp model 7');
  });

  test('a logo <h1> is not taken for the headline of a short title that ends with the site name', () => {
    for (const logo of [
      '<header><h1>Example Works</h1></header>',
      '<div class="site-title"><h1>Example Works</h1></div>',
      '<h1><a href="/">Example Works</a></h1>',
    ]) {
      const html = `<!doctype html><html><head><title>Pricing | Example Works</title></head><body>${logo}
        <main><div class="plans"><h2>Plans and pricing</h2>${prose(3, 'the plans')}</div></main></body></html>`;
      const text = extract(html, 'https://example.org/pricing');
      expect(text).not.toContain('Example Works');
      expect(text).toContain('Plans and pricing');
    }
    const named = `<!doctype html><html><head><title>Pricing | Example Works</title><meta property="og:site_name" content="Example Works"></head><body>
      <h1>Example Works</h1><main>${prose(3, 'the plans')}</main></body></html>`;
    expect(extract(named)).not.toContain('Example Works');
  });

  test('a content root that cannot hold a heading is wrapped, the headline above it', () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) => `<tr><td>Harbour ${i}</td><td>High water at ${i}:00, low water at ${i}:30, a spring tide of ${i} metres.</td></tr>`,
    ).join('');
    const html = `<!doctype html><html><head><title>Tide table for the harbours</title></head><body>
      <div class="top"><h1>Tide table for the harbours</h1></div><table>${rows}</table></body></html>`;
    const root = mainContentOf(html, { url: 'https://example.org/tides' });
    expect(root.tagName).not.toBe('TABLE');
    expect(root.firstElementChild?.tagName).toBe('H1');
    expect(textOf(root)).toStartWith('Tide table for the harbours\n');
  });

  test('a logo <h1> that does not name the page is not added', () => {
    const html = shell('Tide tables for the week', `<main><div class="story">${prose(4, 'the tides')}</div></main>`);
    const text = extract(html);
    expect(text).not.toContain('Example Works');
    expect(firstLine(text)).toStartWith('Paragraph 1 about the tides');
  });
});
