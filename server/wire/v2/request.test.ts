// The /v2 parser: every Firecrawl option lands on its internal field (or in a warning), crawl and
// batch bodies too, and validation issues name the /v2 fields.
import { describe, expect, test } from 'bun:test';
import { crawlFeature } from '../../../core/features/crawl/index.ts';
import { batchFields, crawlFields, scrapeOptionsOf } from '../../../core/features/crawl/schema.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import { composeRequestSchema } from '../../../core/model/compose.ts';
import { parseOrThrow } from '../../../core/validation.ts';
import { builtinPlugins } from '../../../plugins/index.ts';
import { testConfig } from '../../../test/helpers/plugin-context.ts';
import { v2MapSchema, v2ScrapeSchema, v2SearchSchema } from './request.ts';
import { v2BatchSchema, v2CrawlSchema } from './run-request.ts';
import { SCRAPE_ACTION_SCRIPT } from './scrape-options.ts';
import { thrownMessage } from '../../../test/helpers/thrown.ts';

const composed = composeRequestSchema(builtinPlugins);
const limits = crawlFeature.settings(testConfig());
const service = {
  limits,
  fields: { crawl: crawlFields(limits), batch: batchFields(limits), scrapeOptions: scrapeOptionsOf(composed.schema) },
} as unknown as CrawlService;

const message = thrownMessage;

describe('POST /v2/scrape body', () => {
  test('every option on its internal field', () => {
    const parsed = parseOrThrow(v2ScrapeSchema(composed), {
      url: 'example.com/a',
      formats: [
        'markdown',
        'html',
        'rawHtml',
        'links',
        'images',
        'screenshot',
        'summary',
        { type: 'json', prompt: 'Title', schema: { type: 'object' } },
        { type: 'question', question: 'Who?' },
        { type: 'attributes', selectors: [{ selector: 'a', attribute: 'href' }] },
        'branding',
      ],
      onlyMainContent: false,
      includeTags: ['main'],
      excludeTags: ['.ad'],
      waitFor: 500,
      timeout: 20_000,
      mobile: true,
      headers: { Cookie: 'a=b' },
      location: { country: 'de', languages: ['de-DE', 'en'] },
      maxAge: 60_000,
      storeInCache: false,
      actions: [
        { type: 'wait', selector: '#x' },
        { type: 'click', selector: '#b', all: true },
        { type: 'write', text: 'hi' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll', direction: 'up' },
        { type: 'screenshot', fullPage: true },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'return 1' },
      ],
      origin: 'js-sdk@4.42.0',
      proxy: 'stealth',
    });
    expect(parsed.sourceUrl).toBe('example.com/a');
    expect(parsed.request).toEqual({
      url: 'http://example.com/a',
      formats: ['markdown', 'html', 'rawHtml', 'links', 'json', 'screenshot', 'summary', 'extract', 'query', 'attributes'],
      extract: { prompt: 'Title', schema: { type: 'object' } },
      query: 'Who?',
      attributeSelectors: [{ selector: 'a', attribute: 'href' }],
      onlyMainContent: false,
      includeSelectors: ['main'],
      excludeSelectors: ['.ad'],
      timeoutMs: 20_000,
      mobile: true,
      actions: [
        { type: 'wait', milliseconds: 500 },
        { type: 'wait', selector: '#x' },
        { type: 'click', selector: '#b' },
        { type: 'type', selector: ':focus', value: 'hi' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll', direction: 'up' },
        { type: 'screenshot', fullPage: true },
        { type: 'executeJavascript', code: SCRAPE_ACTION_SCRIPT },
        { type: 'executeJavascript', code: 'return 1' },
      ],
      headers: { Cookie: 'a=b', 'Accept-Language': 'de-DE, en' },
      maxAgeMs: 60_000,
      storeInCache: false,
      noCache: false,
      screenshot: false,
    });
    expect(parsed.warnings).toEqual([
      'Format "branding" is not supported by this server and was ignored',
      'actions[1].all is not supported: the first match is clicked',
      "location.country is not applied (pages are fetched from this server's own network); location.languages are sent as Accept-Language",
    ]);
    // The route maps it with [v2.proxies]; the parser only carries it.
    expect(parsed.proxy).toBe('stealth');
  });

  test('defaults: markdown, main content only', () => {
    expect(parseOrThrow(v2ScrapeSchema(composed), { url: 'https://example.com/' }).request).toEqual({
      url: 'https://example.com/',
      formats: ['markdown'],
      onlyMainContent: true,
      noCache: false,
      screenshot: false,
      mobile: false,
    });
  });

  test('refusals name the /v2 field', () => {
    const parse = (body: unknown) => message(() => parseOrThrow(v2ScrapeSchema(composed), body));
    expect(parse({})).toBe('Missing required field: url');
    expect(parse({ url: 'https://e.com', formats: ['json'] })).toStartWith('Invalid field formats[0]: json format must be an object');
    expect(parse({ url: 'https://e.com', formats: ['nope'] })).toStartWith('Invalid field formats[0]: unknown format "nope"');
    expect(parse({ url: 'https://e.com', waitFor: 3000, timeout: 4000 })).toBe(
      'Invalid field waitFor: waitFor must not exceed half of timeout',
    );
    expect(parse({ url: 'https://e.com', includeTags: [' '] })).toBe('Invalid field includeTags[0]: selectors must not be empty');
    expect(parse({ url: 'https://e.com', headers: { Host: 'x' } })).toStartWith('Invalid field headers.Host:');
    expect(parse({ url: 'ftp://e.com' })).toBe('Invalid field url: must be an absolute http(s) URL');
  });
});

describe('crawl, batch, map and search bodies', () => {
  test('a crawl: regex paths, limit, depth, start path, delay, webhook', () => {
    const parsed = parseOrThrow(v2CrawlSchema(service), {
      url: 'https://example.com/docs/',
      includePaths: ['^/docs/.*$'],
      excludePaths: ['private'],
      limit: 50,
      maxDiscoveryDepth: 2,
      delay: 1.5,
      allowSubdomains: true,
      webhook: { url: 'https://hooks.example/x', metadata: { a: 1 }, events: ['completed'] },
      scrapeOptions: { formats: ['links'] },
      ignoreRobotsTxt: true,
    });
    expect(parsed.request).toEqual({
      url: 'https://example.com/docs/',
      maxDepth: 2,
      maxPages: 50,
      allowSubdomains: true,
      allowExternalLinks: false,
      includePaths: ['^/docs/.*$'],
      excludePaths: ['private'],
      pathSyntax: 'regex',
      pathPrefix: '/docs',
      delayMs: 1500,
      hook: { url: 'https://hooks.example/x', headers: {}, metadata: { a: 1 }, events: ['completed'], format: 'firecrawl-v2' },
      sitemap: 'include',
      scrapeOptions: { formats: ['links'], onlyMainContent: true, noCache: false, screenshot: false, mobile: false },
    });
    expect(parsed.warnings).toEqual(['Not supported by this server and ignored: ignoreRobotsTxt']);
    const whole = parseOrThrow(v2CrawlSchema(service), { url: 'https://example.com/docs/', crawlEntireDomain: true, limit: 10_000_000 });
    expect(whole.request.pathPrefix).toBeUndefined();
    expect(whole.request.maxPages).toBe(limits.maxPagesLimit);
    expect(message(() => parseOrThrow(v2CrawlSchema(service), { url: 'https://e.com', excludePaths: ['(a'] }))).toStartWith(
      'Invalid field excludePaths[0]: invalid regular expression',
    );
    expect(parseOrThrow(v2CrawlSchema(service), { url: 'https://e.com', sitemap: 'only' }).request.sitemap).toBe('only');
    expect(parseOrThrow(v2CrawlSchema(service), { url: 'https://e.com' }).request.sitemap).toBe('include');
    expect(message(() => parseOrThrow(v2CrawlSchema(service), { url: 'https://e.com', sitemap: 'always' }))).toStartWith(
      'Invalid field sitemap:',
    );
  });

  test('a batch: invalid URLs set aside, options flat', () => {
    const parsed = parseOrThrow(v2BatchSchema(service), {
      urls: ['https://a.example/1', 'not a url', 'b.example/2'],
      formats: ['html'],
      webhook: 'https://hooks.example/b',
    });
    expect(parsed.invalidURLs).toEqual(['not a url']);
    expect(parsed.request).toEqual({
      urls: ['https://a.example/1', 'http://b.example/2'],
      scrapeOptions: { formats: ['html'], onlyMainContent: true, noCache: false, screenshot: false, mobile: false },
      hook: {
        url: 'https://hooks.example/b',
        headers: {},
        metadata: {},
        events: ['started', 'page', 'completed', 'failed'],
        format: 'firecrawl-v2',
      },
    });
    expect(message(() => parseOrThrow(v2BatchSchema(service), { urls: ['x y'], ignoreInvalidURLs: false }))).toBe(
      'Invalid field urls[0]: must be an absolute http(s) URL',
    );
    expect(message(() => parseOrThrow(v2BatchSchema(service), { urls: ['https://a.example/'], appendToId: 'x' }))).toStartWith(
      'Invalid field appendToId:',
    );
  });

  test('map and search', () => {
    expect(parseOrThrow(v2MapSchema, { url: 'example.com', search: 'docs', limit: 3 })).toEqual({
      request: { url: 'http://example.com/', search: 'docs', limit: 3, include_subdomains: true, sitemap: 'include', filter_by_path: true },
      warnings: [],
    });
    // `sitemap` and `filterByPath` are carried out, so no warning names them.
    expect(
      parseOrThrow(v2MapSchema, { url: 'https://e.com/docs/', sitemap: 'only', filterByPath: false, ignoreQueryParameters: false }),
    ).toEqual({
      request: { url: 'https://e.com/docs/', limit: 5000, include_subdomains: true, sitemap: 'only', filter_by_path: false },
      warnings: ['ignoreQueryParameters: false is not supported; URLs differing only in their query order are one link'],
    });
    expect(message(() => parseOrThrow(v2MapSchema, { url: 'https://e.com', sitemap: 'never' }))).toBe(
      'Invalid field sitemap: must be "include", "only" or "skip"',
    );
    expect(message(() => parseOrThrow(v2MapSchema, { url: 'https://e.com', filterByPath: 'yes' }))).toStartWith(
      'Invalid field filterByPath:',
    );
    const search = parseOrThrow(v2SearchSchema(composed), {
      query: 'tides',
      limit: 80,
      sources: ['web', { type: 'news' }],
      country: 'DE',
      tbs: 'qdr:d',
      scrapeOptions: { formats: ['markdown'], onlyMainContent: false },
    });
    expect(search.request).toEqual({
      query: 'tides',
      numResults: 50,
      scrape: true,
      formats: ['markdown'],
      country: 'de',
      noCache: false,
      scrapeOptions: { onlyMainContent: false, noCache: false, screenshot: false, mobile: false },
    });
    expect(search.warnings).toEqual([
      'Not supported by this server and ignored: tbs',
      'sources: only web results are available here; news left out',
      'limit: at most 50 results per search on this server',
    ]);
    expect(parseOrThrow(v2SearchSchema(composed), { query: 'tides' }).request).toMatchObject({ numResults: 10, scrape: false });
  });
});
