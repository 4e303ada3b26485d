/**
 * The internal model is no wire format's: a real scrape's ScrapeResult and a crawl's stored
 * request and page results carry camelCase names only (so a second wire format, such as /v2,
 * presents them without going through /v1), and a presenter other than /v1's can be written over
 * the model alone, as the one below shows.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { ScrapeResult } from '../../core/model/result.ts';
import { CrawlTokens } from '../../core/features/crawl/index.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { apiClient, waitForRun } from '../fixtures/crawl-site/runs.ts';

let site: FixtureSite;
let server: TestServer;

const PAGE = `<html lang="en"><head><title>Tides</title><meta property="og:site_name" content="Sea">
<meta property="article:published_time" content="2024-03-05T08:15:00Z"></head>
<body><main><h1>Tides</h1><p>The moon pulls on the <a href="/oceans?utm_source=x">oceans</a>.</p><img src="/wave.png" alt="wave"></main></body></html>`;

beforeAll(async () => {
  site = startFixtureSite({ '/': PAGE, '/oceans': PAGE });
  server = await startTrawlServer();
});
afterAll(async () => {
  await Promise.all([server.stop(), site.stop()]);
});

/** Every object key at any depth that is not camelCase. */
function nonCamelKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => nonCamelKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(/^[a-z][a-zA-Z0-9]*$/.test(key) ? [] : [`${path}.${key}`]),
    ...nonCamelKeys(inner, `${path}.${key}`),
  ]);
}

/** A presenter over the model alone, in the style of Firecrawl's v2 document (camelCase metadata, `json` as is). */
function presentLikeV2(result: ScrapeResult): Record<string, unknown> {
  const { json, ...formats } = result.formats;
  const { finalUrl, statusCode, ...metadata } = result.metadata;
  return {
    ...formats,
    ...(json === undefined ? {} : { json }),
    ...(result.warnings.length ? { warning: result.warnings.map((w) => w.message).join('; ') } : {}),
    metadata: { ...metadata, sourceURL: result.url, url: finalUrl, statusCode },
  };
}

test('a scrape result has camelCase names everywhere, and a second presenter needs nothing from /v1', async () => {
  const request = {
    url: site.at('/'),
    formats: ['markdown', 'text', 'json', 'links', 'llm', 'rawHtml', 'attributes'],
    noCache: true,
    attributeSelectors: [{ selector: 'img', attribute: 'src' }],
  };
  const { result } = await server.trawl.scraper.scrape(request, 'default');
  expect(nonCamelKeys(result)).toEqual([]);
  expect(result.metadata).toMatchObject({ title: 'Tides', siteName: 'Sea', publishedDate: '2024-03-05T08:15:00.000Z', statusCode: 200 });
  expect(Object.keys(result.formats)).toEqual(request.formats);

  const v2 = presentLikeV2(result);
  expect(v2.metadata).toMatchObject({ sourceURL: site.at('/'), url: site.at('/'), statusCode: 200, siteName: 'Sea', wordCount: 7 });
  expect(v2.json).toMatchObject({ wordCount: 7, metadata: { siteName: 'Sea' } });
  expect(v2.markdown).toContain('# Tides');
});

test('a crawl stores the internal request and internal page results; /v1 presents them', async () => {
  const client = apiClient(server.url);
  const started = await server.post('/v1/crawl', {
    url: site.at('/'),
    max_pages: 2,
    scrape_options: { formats: ['markdown'], only_main_content: true },
  });
  expect(started.status).toBe(202);
  const summary = await waitForRun(client, `/v1/crawl/${started.body.id}`);
  expect(summary.data[0].metadata.word_count).toBeGreaterThan(0);
  expect(summary.data[0].extraction).toBeUndefined();

  const service = server.trawl.container.resolve(CrawlTokens.Service);
  const run = await service.find('default', 'crawl', started.body.id);
  expect(run.request).toMatchObject({ maxPages: 2, scrapeOptions: { formats: ['markdown'], onlyMainContent: true } });
  expect(nonCamelKeys(run.request)).toEqual([]);
  const pages = await service.pages(run, { offset: 0, limit: 10 });
  expect(pages.length).toBeGreaterThan(0);
  for (const page of pages) {
    expect(nonCamelKeys(page.result)).toEqual([]);
    expect(page.result).toMatchObject({ formats: { markdown: expect.any(String) }, metadata: { wordCount: expect.any(Number) } });
  }
});
