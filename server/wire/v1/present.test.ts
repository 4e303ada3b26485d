// The /v1 presenter: an internal result becomes exactly the /v1 response, field names and order
// included (clients diff these bodies; the cache and crawl pages go through the same function).
import { expect, test } from 'bun:test';
import { emptyMetadata, type Metadata, type ScrapeResult } from '../../../core/model/result.ts';
import { presentResult } from './present.ts';

const metadata: Metadata = {
  ...emptyMetadata(),
  title: 'Report',
  publishedDate: '2025-02-03T10:00:00.000Z',
  siteName: 'Example',
  statusCode: 200,
  finalUrl: 'https://example.com/r.pdf',
  contentType: 'application/pdf',
  rendered: true,
  pageCount: 2,
  wordCount: 7,
};

const result: ScrapeResult = {
  url: 'https://example.com/r',
  metadata,
  formats: {
    markdown: '# Report',
    json: {
      url: 'https://example.com/r',
      metadata,
      content: { markdown: '# Report', text: 'Report' },
      wordCount: 7,
      links: [{ text: 'a', href: 'https://example.com/a' }],
      assets: [],
    },
    query: { answer: 'An answer', method: 'extractive', passages: [{ text: 'An answer', score: 1.5 }] },
    rawHtml: '<h1>Report</h1>',
  },
  actions: { jsResults: [1, null], screenshots: [{ index: 2, data: 'AAA' }], errors: [{ index: 1, type: 'click', error: 'no match' }] },
  screenshot: 'PNG',
  warnings: [
    { level: 'warning', stage: 'fetch', plugin: 'fetcher.browser', message: '1 action(s) failed and were skipped (see action_errors)' },
  ],
};

const V1_METADATA =
  '{"title":"Report","description":"","author":null,"published_date":"2025-02-03T10:00:00.000Z","language":null,"site_name":"Example","image":null,"favicon":null,"word_count":7,"status_code":200,"final_url":"https://example.com/r.pdf","content_type":"application/pdf","rendered":true,"page_count":2}';

test('a result with every part presents to the exact /v1 JSON', () => {
  expect(JSON.stringify(presentResult(result))).toBe(
    '{"url":"https://example.com/r","metadata":' +
      V1_METADATA +
      ',"markdown":"# Report",' +
      '"extraction":{"url":"https://example.com/r","metadata":' +
      V1_METADATA +
      ',"content":{"markdown":"# Report","text":"Report"},"word_count":7,"links":[{"text":"a","href":"https://example.com/a"}],"assets":[]},' +
      '"query_answer":"An answer","query_method":"extractive","query_passages":[{"text":"An answer","score":1.5}],"rawHtml":"<h1>Report</h1>",' +
      '"js_results":[1,null],"screenshots":[{"index":2,"data":"AAA"}],"action_errors":[{"index":1,"type":"click","error":"no match"}],"screenshot":"PNG",' +
      '"warnings":["fetcher.browser: 1 action(s) failed and were skipped (see action_errors)"]}',
  );
});

test('absent parts stay absent; the screenshot format keeps its place among the formats', () => {
  const bare: ScrapeResult = {
    url: 'https://e.com/',
    metadata: emptyMetadata(),
    formats: { screenshot: 'PNG', text: 'x' },
    screenshot: 'PNG',
    actions: { errors: [] },
    warnings: [],
  };
  expect(Object.keys(presentResult(bare))).toEqual(['url', 'metadata', 'screenshot', 'text']);
});

test('format output that is user data is not renamed', () => {
  const data: ScrapeResult = {
    url: 'https://e.com/',
    metadata: emptyMetadata(),
    formats: { attributes: [{ selector: 'a', attribute: 'data-x_y', values: ['v'] }] },
    warnings: [],
  };
  expect(presentResult(data).attributes).toEqual([{ selector: 'a', attribute: 'data-x_y', values: ['v'] }]);
});
