import { describe, expect, test } from 'bun:test';
import type { PageType, TransformHandler } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';
import { htmlPage } from '../../../test/helpers/html-page.ts';
import { mainContentTransform } from './main-content.ts';

const prose = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} Paragraph ${i + 1} goes on at some length, with commas, clauses and examples, so that it reads like the prose of a real page written by a person for readers who want to understand the matter well.</p>`,
  ).join('\n');
const nav =
  '<header><nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/contact">Contact</a></li></ul></nav></header>';
const footer =
  '<footer><p>© 2026 Example Ltd. All rights reserved.</p><ul><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul></footer>';

const PAGES: Record<string, { url: string; html: string }> = {
  article: {
    url: 'https://news.example.com/2026/03/tides-turn',
    html: `<html><head><title>The tides turn | Harbour Post</title><meta property="og:type" content="article">
      <meta name="author" content="Morag Lindsay"><meta property="article:published_time" content="2026-03-14T08:30:00Z"></head>
      <body class="single single-post postid-42">${nav}<main><article><h1>The tides turn</h1>${prose('The tide tables were rewritten this spring.', 6)}</article></main>${footer}</body></html>`,
  },
  forum: {
    url: 'https://forum.example.org/t/pump-keeps-failing/1234',
    html: `<html><head><title>Pump keeps failing - Example Forum</title><meta name="generator" content="Discourse 3.2"></head><body>${nav}
      <div id="topic"><h1>Pump keeps failing</h1>
      ${Array.from({ length: 6 }, (_, i) => `<div class="topic-post"><div class="names"><a href="/u/user${i}">user${i}</a></div><div class="cooked"><p>Reply ${i + 1}: I had the same trouble with my pump last winter, and swapping the seal fixed it for good after a week.</p></div></div>`).join('\n')}
      </div>${footer}</body></html>`,
  },
  product: {
    url: 'https://shop.example.com/products/stillwater-kettle',
    html: `<html><head><title>Stillwater kettle</title><meta property="og:type" content="product">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Stillwater kettle","offers":{"@type":"Offer","price":"89.00","priceCurrency":"GBP"}}</script></head>
      <body class="single-product">${nav}<main><h1>Stillwater kettle</h1><img src="/k1.jpg" alt="Kettle"><img src="/k2.jpg" alt="Kettle side">
      <div class="buy-box"><span class="price">£89.00</span> <span>In stock</span><button class="add-to-cart">Add to cart</button></div>
      <p>Our quietest kettle boils a full litre in under three minutes, and you will barely hear it doing so in the morning.</p>
      <ul><li>Capacity: 1.7 litres</li><li>Power: 2200 watts</li><li>Weight: 1.1 kg</li></ul></main>${footer}</body></html>`,
  },
  listing: {
    url: 'https://www.example.com/news/',
    html: `<html><head><title>News | Example</title><meta property="og:type" content="website"></head><body class="blog">${nav}<main><h1>Latest news</h1>
      ${Array.from({ length: 12 }, (_, i) => `<div class="teaser"><h2><a href="/news/story-${i}">Story number ${i + 1} about the harbour and its boats</a></h2><time>2026-03-${10 + i}</time><a href="/news/story-${i}">Read more</a></div>`).join('\n')}
      </main>${footer}</body></html>`,
  },
  collection: {
    url: 'https://shop.example.com/collections/kettles',
    html: `<html><head><title>Kettles</title><meta property="og:type" content="product.group">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage","name":"Kettles"}</script></head><body>${nav}<main><h1>Kettles</h1>
      ${Array.from({ length: 12 }, (_, i) => `<div class="card"><a href="/products/kettle-${i}"><img src="/k${i}.jpg" alt="Kettle ${i}"><h3>Kettle ${i + 1}</h3></a><span class="price">£${40 + i}.00</span></div>`).join('\n')}
      </main>${footer}</body></html>`,
  },
  documentation: {
    url: 'https://docs.example.dev/guide/retries',
    html: `<html><head><title>Retries - Example docs</title><meta name="generator" content="Docusaurus v3.1"></head><body>${nav}<main><article><h1>Retries</h1>
      ${prose('A request that fails with a 5xx status is retried with backoff.', 3)}
      <pre><code>client.retry({ attempts: 3 })</code></pre><p>Set the number of attempts per client, not per call.</p>
      <pre><code>client.retry({ attempts: 5, backoff: 'exponential' })</code></pre><pre><code>client.retry(false)</code></pre></article></main>${footer}</body></html>`,
  },
  service: {
    url: 'https://www.example.com/services/roof-repair/',
    html: `<html><head><title>Roof repair | Example Roofing</title><meta property="og:type" content="website">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Service","name":"Roof repair"}</script></head>
      <body class="page-template-default page page-id-12">${nav}<main><h1>Roof repair you can count on</h1>
      ${['Free inspection', 'Fixed prices', 'Ten-year guarantee', 'Local crews'].map((h, i) => `<section><h2>${h}</h2><img src="/s${i}.jpg" alt=""><p>We look after every roof as if it were our own, and tell you the price before we start.</p></section>`).join('\n')}
      <a class="button" href="/quote">Get a quote</a></main>${footer}</body></html>`,
  },
};

const scrape = (url: string, html: string, onlyMainContent = true) => htmlPage(html, { url, onlyMainContent }).metadata;

describe('page type', () => {
  for (const [type, page] of Object.entries(PAGES)) {
    test(`${type} page`, () => {
      expect(scrape(page.url, page.html).pageType).toBe(type as PageType);
    });
  }

  test('the type holds with only_main_content off, from the measuring walk alone', () => {
    for (const [type, page] of Object.entries(PAGES)) expect([type, scrape(page.url, page.html, false).pageType]).toEqual([type, type]);
  });

  test('a page with next to no content is other', () => {
    expect(
      scrape('https://app.example.com/', '<html><head><title>App</title></head><body><div id="root"></div></body></html>').pageType,
    ).toBe('other');
  });

  test("documents are not typed: a PDF's or a sheet's kind is its file type", async () => {
    const main = (await mainContentTransform.setup(mainContentTransform.options!.parse({}), testContext())) as TransformHandler;
    for (const onlyMainContent of [true, false]) {
      // (a document plugin builds its content as HTML, and reads no schema.org types)
      const doc = testDocument({ url: 'https://example.com/report.pdf', onlyMainContent });
      doc.setContentHtml(`<h1>Annual report</h1>${prose('Revenue grew in every quarter.', 4)}`);
      main.apply(doc);
      expect(doc.metadata.pageType).toBeUndefined();
      expect(doc.metadata.contentConfidence).toBeUndefined();
    }
  });
});

describe('content confidence', () => {
  const confidence = (type: string, onlyMainContent = true) =>
    scrape(PAGES[type]!.url, PAGES[type]!.html, onlyMainContent).contentConfidence!;

  test('is a probability, rounded to three decimals', () => {
    for (const type of Object.keys(PAGES)) {
      const c = confidence(type);
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
      expect(Math.round(c * 1000) / 1000).toBe(c);
    }
  });

  test('prose in long paragraphs is trusted, link lists and product pages much less', () => {
    expect(confidence('article')).toBeGreaterThan(0.9);
    expect(confidence('listing')).toBeLessThan(0.3);
    expect(confidence('product')).toBeLessThan(confidence('article') - 0.3);
  });

  test('a whole page heavy with navigation is trusted less than its extracted content', () => {
    const html = `<html><head><title>The tides turn</title></head><body>${nav}
      <aside><ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="/topic/${i}">Topic ${i} and its many stories</a></li>`).join('')}</ul></aside>
      <main><article><h1>The tides turn</h1>${prose('The tide tables were rewritten this spring.', 4)}</article></main>${footer}</body></html>`;
    const whole = scrape('https://news.example.com/2026/03/tides-turn', html, false).contentConfidence!;
    const main = scrape('https://news.example.com/2026/03/tides-turn', html, true).contentConfidence!;
    expect(whole).toBeLessThan(0.5);
    expect(main).toBeGreaterThan(0.9);
  });

  test('a page whose description stands in for its content is not trusted', () => {
    const html =
      '<html><head><title>App</title><meta name="description" content="A planner for your week that keeps every task, note and reminder in one calm place, on every device."></head><body><div id="root">Loading…</div></body></html>';
    const meta = scrape('https://app.example.com/planner', html);
    expect(meta.pageType).toBe('other');
    expect(meta.contentConfidence!).toBeLessThan(0.5);
  });
});
