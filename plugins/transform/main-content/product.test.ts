// Product page recognition: structured data, or a buy control inside a box that sells something.
import { expect, test } from 'bun:test';
import { parseHtmlDocument, textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';
import { looksLikeProduct } from './product.ts';

const buyControls = (html: string) => {
  const doc = parseHtmlDocument(html);
  return [...doc.querySelectorAll('button, form, div')].filter((el) => looksLikeProduct(el, el.tagName, el.getAttribute('class')));
};

test('a buy button in a box with a price, a stock line or a quantity marks a product', () => {
  expect(buyControls('<div class="buy"><span>€ 49,90</span><button class="add-to-cart">Add</button></div>')).toHaveLength(1);
  expect(buyControls('<div class="buy"><p>Currently unavailable.</p><form id="addToCart"><button>Add</button></form></div>')).toHaveLength(
    1,
  );
  expect(buyControls('<div><label>Qty</label><input><button class="btn addtocart">Add</button></div>')).toHaveLength(1);
});

test('a lone buy button, as a broken head leaves one at the top of the body, marks nothing', () => {
  expect(
    buyControls(
      '<html><head><title>Resumes</title><button id="addToCartButton">Add To Cart</button><meta name="x" content="y"></head><body><p>We write resumes for $125K roles.</p></body></html>',
    ),
  ).toHaveLength(0);
});

test("a service page with a stray cart button keeps dropping its testimonials' author boxes", () => {
  const quotes = Array.from(
    { length: 4 },
    (_, i) =>
      `<div class="slide"><div class="quote"><h3>"Spot on! I had an interview within ${i + 2} days of sending my new resume."</h3></div><div class="testimonial_author_info"><p>Client ${i}, happy customer</p></div></div>`,
  ).join('');
  const html = `<!doctype html><html><head><title>Resume writing</title><button id="addToCartButton">Add To Cart</button></head><body>
    <div class="content"><h1>Resume writing</h1>${Array.from({ length: 4 }, (_, i) => `<p>Our writers spend an hour with you on the phone, learn what you did and what you want next, and turn it into a resume that recruiters read to the end, part ${i}.</p>`).join('')}${quotes}</div></body></html>`;
  const text = textOf(mainContentOf(html, { url: 'https://resumes.example/' }));
  expect(text).toContain('interview within 2 days');
  expect(text).not.toContain('happy customer');
});
