// The /v1 parser: every /v1 field lands on its internal name, crawl and batch bodies too, and
// validation messages still name the /v1 fields.
import { describe, expect, test } from 'bun:test';
import { composeRequestSchema } from '../../../core/model/compose.ts';
import { crawlFeature } from '../../../core/features/crawl/index.ts';
import { batchFields, crawlFields, scrapeOptionsOf } from '../../../core/features/crawl/schema.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import { parseOrThrow } from '../../../core/validation.ts';
import { builtinPlugins } from '../../../plugins/index.ts';
import { testConfig } from '../../../test/helpers/plugin-context.ts';
import { fromV1Name, toV1Name, v1Field } from './names.ts';
import { v1BatchSchema, v1CrawlSchema, v1ScrapeSchema } from './request.ts';
import { thrownMessage } from '../../../test/helpers/thrown.ts';

const composed = composeRequestSchema(builtinPlugins);
const limits = crawlFeature.settings(testConfig());
const service = {
  fields: { crawl: crawlFields(limits), batch: batchFields(limits), scrapeOptions: scrapeOptionsOf(composed.schema) },
} as unknown as CrawlService;

const EVERY_FIELD = {
  url: 'example.com/a',
  formats: ['markdown', 'json', 'attributes', 'query'],
  include_selectors: ['main'],
  exclude_selectors: ['.ad'],
  only_main_content: true,
  actions: [{ type: 'click', selector: '#more' }],
  screenshot: true,
  mobile: true,
  render: true,
  ignore_action_errors: true,
  no_cache: true,
  store_in_cache: false,
  query: 'Who?',
  attribute_selectors: [{ selector: 'a', attribute: 'href' }],
  timeout: 20_000,
  max_age_ms: 60_000,
  headers: { 'X-Token': 'abc' },
  proxy: 'auto',
  extract: { prompt: 'The title' },
};

const EVERY_FIELD_MODEL = {
  url: 'https://example.com/a',
  formats: ['markdown', 'json', 'attributes', 'query'],
  includeSelectors: ['main'],
  excludeSelectors: ['.ad'],
  onlyMainContent: true,
  actions: [{ type: 'click', selector: '#more' }],
  screenshot: true,
  mobile: true,
  render: true,
  ignoreActionErrors: true,
  noCache: true,
  storeInCache: false,
  query: 'Who?',
  attributeSelectors: [{ selector: 'a', attribute: 'href' }],
  timeoutMs: 20_000,
  maxAgeMs: 60_000,
  headers: { 'X-Token': 'abc' },
  proxy: 'auto',
  extract: { prompt: 'The title' },
};

const message = thrownMessage;

describe('names', () => {
  test('snake_case both ways, timeout the one exception, paths keep their index', () => {
    expect(toV1Name('onlyMainContent')).toBe('only_main_content');
    expect(fromV1Name('only_main_content')).toBe('onlyMainContent');
    expect(toV1Name('timeoutMs')).toBe('timeout');
    expect(fromV1Name('timeout')).toBe('timeoutMs');
    expect(v1Field('includeSelectors[2]')).toBe('include_selectors[2]');
    expect(v1Field('actions[0]')).toBe('actions[0]');
  });
});

describe('POST /v1/scrape body', () => {
  test('a body with every field parses to the internal request', () => {
    expect(parseOrThrow(v1ScrapeSchema(composed), EVERY_FIELD)).toEqual(EVERY_FIELD_MODEL);
  });

  test('every field of the internal request has its /v1 name (core and plugin-declared alike)', () => {
    expect(Object.keys(composed.schema.shape).map(toV1Name).sort()).toEqual(Object.keys(EVERY_FIELD).sort());
  });

  test('defaults are filled in under internal names', () => {
    expect(parseOrThrow(v1ScrapeSchema(composed), { url: 'https://example.com/' })).toEqual({
      url: 'https://example.com/',
      formats: ['markdown'],
      noCache: false,
      onlyMainContent: false,
      screenshot: false,
      mobile: false,
    });
  });

  test('messages name the /v1 fields', () => {
    const parse = (body: unknown) => message(() => parseOrThrow(v1ScrapeSchema(composed), body));
    expect(parse({})).toBe('Missing required field: url');
    expect(parse({ url: 'https://e.com', only_main_content: 'yes' })).toBe(
      'Invalid field only_main_content: Invalid input: expected boolean, received string',
    );
    expect(parse({ url: 'https://e.com', onlyMainContent: true })).toBe('Unknown field: onlyMainContent');
    expect(parse({ url: 'https://e.com', attribute_selectors: [{ selector: 'a' }] })).toContain('attribute_selectors[0].attribute');
    expect(parse({ url: 'https://e.com', timeout: 5 })).toStartWith('Invalid field timeout:');
  });
});

describe('crawl and batch bodies', () => {
  test('a crawl body: crawl fields and scrape_options renamed', () => {
    const { url: _url, ...options } = EVERY_FIELD;
    const { url: _modelUrl, ...modelOptions } = EVERY_FIELD_MODEL;
    const body = {
      url: 'https://example.com/',
      max_depth: 2,
      max_pages: 5,
      allow_subdomains: true,
      allow_external_links: false,
      include_paths: ['/blog/**'],
      exclude_paths: ['/tag/**'],
      webhook_url: 'https://hooks.example/x',
      sitemap: 'only',
      scrape_options: options,
    };
    expect(parseOrThrow(v1CrawlSchema(service), body)).toEqual({
      url: 'https://example.com/',
      maxDepth: 2,
      maxPages: 5,
      allowSubdomains: true,
      allowExternalLinks: false,
      includePaths: ['/blog/**'],
      excludePaths: ['/tag/**'],
      webhookUrl: 'https://hooks.example/x',
      sitemap: 'only',
      scrapeOptions: modelOptions,
    });
    expect(
      message(() => parseOrThrow(v1CrawlSchema(service), { url: 'https://e.com', scrape_options: { only_main_content: 1 } })),
    ).toStartWith('Invalid field scrape_options.only_main_content:');
  });

  test('a batch body: flat options beside urls and webhook_url', () => {
    const parsed = parseOrThrow(v1BatchSchema(service), {
      urls: ['a.example/1'],
      webhook_url: 'https://hooks.example/b',
      formats: ['text'],
      only_main_content: true,
    });
    expect(parsed).toEqual({
      urls: ['https://a.example/1'],
      webhookUrl: 'https://hooks.example/b',
      scrapeOptions: { formats: ['text'], noCache: false, onlyMainContent: true, screenshot: false, mobile: false },
    });
    expect(message(() => parseOrThrow(v1BatchSchema(service), { formats: ['text'] }))).toBe('Missing required field: urls');
  });
});

describe('actions', () => {
  test('the fields inside an action are renamed too, and a camelCase one is refused as /v1 refuses any unknown field', () => {
    const parsed = parseOrThrow(v1ScrapeSchema(composed), { url: 'https://e.com', actions: [{ type: 'screenshot', full_page: true }] });
    expect(parsed.actions).toEqual([{ type: 'screenshot', fullPage: true }]);
    expect(
      message(() =>
        parseOrThrow(v1ScrapeSchema(composed), {
          url: 'https://e.com',
          actions: [
            { type: 'wait', milliseconds: 5 },
            { type: 'screenshot', fullPage: true },
          ],
        }),
      ),
    ).toBe('Unknown field: actions[1].fullPage');
    expect(
      message(() =>
        parseOrThrow(v1CrawlSchema(service), {
          url: 'https://e.com',
          scrape_options: { actions: [{ type: 'screenshot', fullPage: true }] },
        }),
      ),
    ).toBe('Unknown field: scrape_options.actions[0].fullPage');
  });
});
