// attributes format: validation (400s), values from the page as served, URL resolution, the cap.
import { describe, expect, test } from 'bun:test';
import { parseHtmlFragment } from '../../../core/kit.ts';
import { snakeFieldName, testContext, testDocument, testJob } from '../../../core/testing.ts';
import { htmlStages } from '../../../test/helpers/html-page.ts';
import { attributesFormat, attributeValue, collectAttributes, MAX_VALUES_PER_SELECTOR } from './attributes.ts';

const PAGE = `<!doctype html><html><head><base href="https://shop.example/catalog/"><meta property="og:image" content="/og.png"></head><body>
<div class="product" data-sku="A-1"><a href="item/a?ref=1">A</a><img src="a.jpg" srcset="a-1x.jpg 1x, a-2x.jpg 2x"><meta itemprop="price" content="9.99"></div>
<div class="product" data-sku="B-2" style="display:none"><a href="javascript:void(0)">B</a><img src="data:image/gif;base64,AA"></div>
<div class="product"><a>no href</a></div>
<script src="/app.js"></script>
</body></html>`;

const handler = () => attributesFormat.setup({}, testContext());

describe('validate', () => {
  test('the format without attribute_selectors, or with an empty list, is refused', async () => {
    const h = await handler();
    expect(h.validate!(testJob({ url: 'https://x.example/', formats: ['attributes'] }), snakeFieldName)).toBe(
      'Format "attributes" requires attribute_selectors: a list of {selector, attribute}',
    );
    expect(h.validate!(testJob({ url: 'https://x.example/', formats: ['attributes'], attributeSelectors: [] }), (p) => p)).toContain(
      'requires attributeSelectors',
    );
  });

  test('a selector that does not parse is named with its index', async () => {
    const h = await handler();
    const job = testJob({
      url: 'https://x.example/',
      formats: ['attributes'],
      attributeSelectors: [
        { selector: 'a', attribute: 'href' },
        { selector: 'div[[', attribute: 'id' },
      ],
    });
    expect(h.validate!(job, snakeFieldName)).toBe('Invalid field attribute_selectors[1]: invalid CSS selector "div[["');
    expect(
      h.validate!(
        testJob({
          url: 'https://x.example/',
          formats: ['attributes'],
          attributeSelectors: [{ selector: '.product > a', attribute: 'href' }],
        }),
        snakeFieldName,
      ),
    ).toBeNull();
  });
});

describe('render', () => {
  test('values in document order from the page as served: cleaning does not hide hidden elements, meta or scripts', async () => {
    const doc = testDocument({
      url: 'https://shop.example/catalog/list',
      formats: ['attributes'],
      attributeSelectors: [
        { selector: '.product', attribute: 'data-sku' },
        { selector: '.product a', attribute: 'href' },
        { selector: 'img', attribute: 'srcset' },
        { selector: '[itemprop=price]', attribute: 'content' },
        { selector: 'script', attribute: 'src' },
        { selector: 'meta[property="og:image"]', attribute: 'content' },
        { selector: 'table', attribute: 'id' },
      ],
    });
    doc.response = {
      status: 200,
      headers: {},
      body: new TextEncoder().encode(PAGE),
      finalUrl: 'https://shop.example/catalog/list',
      mediaType: 'text/html',
      text: PAGE,
    };
    doc.type = 'document.html';
    htmlStages(doc);
    expect(await (await handler()).render(doc)).toEqual([
      { selector: '.product', attribute: 'data-sku', values: ['A-1', 'B-2'] },
      { selector: '.product a', attribute: 'href', values: ['https://shop.example/catalog/item/a?ref=1', 'javascript:void(0)'] },
      {
        selector: 'img',
        attribute: 'srcset',
        values: ['https://shop.example/catalog/a-1x.jpg 1x, https://shop.example/catalog/a-2x.jpg 2x'],
      },
      { selector: '[itemprop=price]', attribute: 'content', values: ['9.99'] },
      { selector: 'script', attribute: 'src', values: ['https://shop.example/app.js'] },
      { selector: 'meta[property="og:image"]', attribute: 'content', values: ['/og.png'] },
      { selector: 'table', attribute: 'id', values: [] },
    ]);
  });

  test('a document that is not HTML offers the HTML built from it', async () => {
    const doc = testDocument({
      url: 'https://x.example/report.pdf',
      formats: ['attributes'],
      attributeSelectors: [{ selector: 'h1', attribute: 'id' }],
    });
    doc.type = 'document.pdf';
    doc.setContentHtml('<h1 id="p1">Report</h1>');
    expect(await (await handler()).render(doc)).toEqual([{ selector: 'h1', attribute: 'id', values: ['p1'] }]);
  });

  test('data: URIs stay as written; other attributes are not treated as URLs', () => {
    const el = parseHtmlFragment('<img src="data:image/png;base64,AA" alt="x/y" data-src="/lazy.jpg">').querySelector('img')!;
    expect(attributeValue(el, 'src', 'https://x.example/')).toBe('data:image/png;base64,AA');
    expect(attributeValue(el, 'alt', 'https://x.example/')).toBe('x/y');
    expect(attributeValue(el, 'data-src', 'https://x.example/a/')).toBe('https://x.example/lazy.jpg');
  });

  test('at most MAX_VALUES_PER_SELECTOR values per selector, and the cut is reported', async () => {
    const many = parseHtmlFragment('<i data-n="1"></i>'.repeat(MAX_VALUES_PER_SELECTOR + 5));
    const { results, truncated } = collectAttributes(many, [{ selector: 'i', attribute: 'data-n' }], 'https://x.example/');
    expect(results[0]!.values).toHaveLength(MAX_VALUES_PER_SELECTOR);
    expect(truncated).toEqual(['i']);
    expect(attributesFormat.provides).toEqual(['format:attributes']);
  });
});
