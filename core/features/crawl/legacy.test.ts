// Rows written before the internal model: requests are upgraded when read, /v1-shaped page
// results are served as stored, internal ones are presented by the caller's wire format.
import { describe, expect, test } from 'bun:test';
import { emptyMetadata, type ScrapeResult } from '../../model/result.ts';
import { isScrapeResult, storedRequest } from './legacy.ts';
import { pageItem } from './present.ts';

describe('storedRequest', () => {
  test('an old crawl row (the /v1 body) reads as the internal crawl request', () => {
    const old = {
      url: 'https://e.com/',
      max_depth: 2,
      max_pages: 10,
      allow_subdomains: false,
      allow_external_links: true,
      include_paths: [],
      exclude_paths: ['/x/**'],
      webhook_url: 'https://h.example/',
      scrape_options: { formats: ['markdown'], only_main_content: true, no_cache: false, timeout: 9000 },
    };
    expect(storedRequest('crawl', old)).toEqual({
      url: 'https://e.com/',
      maxDepth: 2,
      maxPages: 10,
      allowSubdomains: false,
      allowExternalLinks: true,
      includePaths: [],
      excludePaths: ['/x/**'],
      webhookUrl: 'https://h.example/',
      scrapeOptions: { formats: ['markdown'], onlyMainContent: true, noCache: false, timeoutMs: 9000 },
    });
  });

  test('an old batch row (flat options and webhook_url) reads as the internal stored batch', () => {
    expect(
      storedRequest('batch', { formats: ['text'], include_selectors: ['main'], no_cache: false, webhook_url: 'https://h.example/' }),
    ).toEqual({ webhookUrl: 'https://h.example/', scrapeOptions: { formats: ['text'], includeSelectors: ['main'], noCache: false } });
  });

  test('a new row is read as it is', () => {
    const row = { webhookUrl: 'https://h.example/', scrapeOptions: { formats: ['text'], noCache: false } };
    expect(storedRequest('batch', row)).toBe(row as never);
  });
});

describe('page results', () => {
  const internal: ScrapeResult = { url: 'https://e.com/', metadata: emptyMetadata(), formats: { text: 'x' }, warnings: [] };
  const present = (result: ScrapeResult) => ({ shown: result.formats.text });

  test('an internal result is presented, an old /v1 one is served as stored', () => {
    expect(isScrapeResult(internal as never)).toBe(true);
    expect(isScrapeResult({ url: 'https://e.com/', metadata: { word_count: 1 }, text: 'x' })).toBe(false);
    const row = { seq: 1, url: 'https://e.com/', depth: 0, outcome: 'completed' as const, error: null };
    expect(pageItem({ ...row, result: internal as never }, present)).toEqual({
      url: 'https://e.com/',
      status: 'completed',
      depth: 0,
      shown: 'x',
    });
    expect(pageItem({ ...row, result: { url: 'https://e.com/', text: 'old' } }, present)).toEqual({
      url: 'https://e.com/',
      status: 'completed',
      depth: 0,
      text: 'old',
    });
  });
});
