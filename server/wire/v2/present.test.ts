// The /v2 presenter: an internal result becomes exactly Firecrawl's Document, field names, order
// and the actions' results included; run status pages and errors lists in their shapes.
import { expect, test } from 'bun:test';
import type { PageRow, RunRow } from '../../../core/features/crawl/rows.ts';
import { emptyMetadata, type ScrapeResult } from '../../../core/model/result.ts';
import { presentDocument, presentErrors, presentRunStatus } from './present.ts';
import { SCRAPE_ACTION_SCRIPT } from './scrape-options.ts';

const result: ScrapeResult = {
  url: 'https://example.com/a',
  metadata: {
    ...emptyMetadata(),
    title: 'A',
    description: 'About A',
    language: 'en',
    siteName: 'Ex',
    image: 'https://example.com/i.png',
    statusCode: 404,
    finalUrl: 'https://example.com/a/',
    contentType: 'text/html',
    wordCount: 3,
    pageType: 'article',
    contentConfidence: 0.912,
  },
  formats: {
    markdown: '# A',
    links: [{ text: 'B', href: 'https://example.com/b' }],
    json: {
      url: 'https://example.com/a',
      metadata: emptyMetadata(),
      content: { markdown: '', text: '' },
      wordCount: 0,
      links: [],
      assets: [
        { type: 'image', url: 'https://example.com/i.png' },
        { type: 'video', url: 'https://example.com/v.mp4' },
      ],
    },
    extract: { title: 'A' },
    query: { answer: 'Yes', method: 'llm', passages: [] },
    screenshot: 'PNG0',
  },
  actions: { jsResults: [{ url: 'https://example.com/a/', html: '<html></html>' }, 42], screenshots: [{ index: 0, data: 'PNG1' }] },
  warnings: [{ level: 'warning', stage: 'fetch', plugin: 'fetcher.http', message: 'The server answered HTTP 404' }],
};

test('a result with every part presents to the exact /v2 Document', () => {
  const options = {
    formats: ['markdown', 'links', 'json', 'extract', 'query', 'screenshot'],
    actions: [
      { type: 'screenshot' },
      { type: 'executeJavascript', code: SCRAPE_ACTION_SCRIPT },
      { type: 'executeJavascript', code: 'return 42' },
    ],
  };
  expect(JSON.stringify(presentDocument(result, options, 'example.com/a', 'miss'))).toBe(
    JSON.stringify({
      markdown: '# A',
      links: ['https://example.com/b'],
      images: ['https://example.com/i.png'],
      json: { title: 'A' },
      answer: 'Yes',
      screenshot: 'data:image/png;base64,PNG0',
      actions: {
        screenshots: ['data:image/png;base64,PNG1'],
        scrapes: [{ url: 'https://example.com/a/', html: '<html></html>' }],
        javascriptReturns: [{ type: 'number', value: 42 }],
        pdfs: [],
      },
      metadata: {
        title: 'A',
        description: 'About A',
        language: 'en',
        ogTitle: 'A',
        ogDescription: 'About A',
        ogImage: 'https://example.com/i.png',
        ogSiteName: 'Ex',
        contentType: 'text/html',
        pageType: 'article',
        contentConfidence: 0.912,
        sourceURL: 'example.com/a',
        url: 'https://example.com/a/',
        statusCode: 404,
        error: 'Not Found',
        cacheState: 'miss',
        proxyUsed: 'basic',
      },
      warning: 'The server answered HTTP 404',
    }),
  );
});

test('formats not asked for stay out, and a failed extraction leaves json out', () => {
  const doc = presentDocument({ ...result, formats: { ...result.formats, extract: null } }, { formats: ['markdown', 'extract'] });
  expect(Object.keys(doc)).toEqual(['markdown', 'metadata', 'warning']);
  expect((doc.metadata as Record<string, unknown>).sourceURL).toBe('https://example.com/a');
});

const run: RunRow = {
  id: 'r1',
  workspace: 'default',
  kind: 'crawl',
  url: 'https://example.com/',
  request: {},
  scopeHosts: [],
  status: 'queued',
  admitted: 5,
  completed: 2,
  failed: 1,
  seq: 3,
  error: null,
  retryOf: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  completedAt: null,
};

test('a run status page: queued reads as scraping, failed pages are out of total', () => {
  expect(presentRunStatus(run, [], 'https://t.example/v2/crawl/r1?skip=2&limit=2')).toEqual({
    success: true,
    status: 'scraping',
    completed: 2,
    total: 4,
    creditsUsed: 3,
    next: 'https://t.example/v2/crawl/r1?skip=2&limit=2',
    data: [],
  });
});

test('errors: robots.txt refusals apart from failures', () => {
  const failed = (seq: number, url: string, error: string): PageRow => ({ seq, url, depth: 1, outcome: 'failed', result: null, error });
  expect(
    presentErrors(run, [
      failed(1, 'https://example.com/x', 'Failed to fetch URL: timeout'),
      failed(2, 'https://example.com/private', 'Disallowed by robots.txt'),
    ]),
  ).toEqual({
    errors: [{ id: 'r1-1', url: 'https://example.com/x', error: 'Failed to fetch URL: timeout' }],
    robotsBlocked: ['https://example.com/private'],
  });
});
