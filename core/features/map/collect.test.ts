// Search and the collector: dedupe by the URL module's key, scope (hosts and paths), titles, the
// limit (the rules themselves: core/net/*.test.ts, paths.test.ts).
import { describe, expect, test } from 'bun:test';
import { siteScope } from '../../net/scope.ts';
import { LinkCollector, searchFilter } from './collect.ts';
import { pathBase, pathFilter } from './paths.ts';

describe('searchFilter', () => {
  test('every term in the decoded URL or title, ignoring case', () => {
    const match = searchFilter('  Blog  café ');
    expect(match({ url: 'https://e.com/blog/caf%C3%A9' })).toBe(true);
    expect(match({ url: 'https://e.com/blog/1', title: 'Le Café' })).toBe(true);
    expect(match({ url: 'https://e.com/blog/1' })).toBe(false);
    expect(searchFilter(undefined)({ url: 'https://e.com/%E0%A4%A' })).toBe(true);
    expect(searchFilter('x')({ url: 'https://e.com/%E0%A4%A-x' })).toBe(true);
  });
});

describe('LinkCollector', () => {
  test('keeps the first spelling (without fragment), merges later titles and dates, and stops at the limit', () => {
    const collector = new LinkCollector(2, () => true);
    collector.setScope(siteScope(['example.com'], 'host'));
    collector.add({ url: 'mailto:a@example.com' });
    collector.add({ url: 'https://example.com/a/#top', lastmod: '2024-01-01T00:00:00.000Z' });
    collector.add({ url: 'https://other.com/b' });
    collector.add({ url: 'https://example.com/a', title: 'A', lastmod: '2025-01-01T00:00:00.000Z' });
    collector.add({ url: 'https://example.com/b' });
    collector.add({ url: 'https://example.com/c' });
    collector.add({ url: `https://example.com/${'x'.repeat(3000)}` });
    expect(collector.full).toBe(true);
    expect(collector.links()).toEqual([
      { url: 'https://example.com/a/', lastmod: '2024-01-01T00:00:00.000Z', title: 'A' },
      { url: 'https://example.com/b' },
    ]);
  });

  test('the path test: links off the path are left out and noted, off-site or unmatched ones are not noted', () => {
    const collector = new LinkCollector(10, (link) => !link.url.includes('skip'));
    collector.setScope(siteScope(['example.com'], 'host'), pathFilter([pathBase('/docs/')]));
    collector.add({ url: 'https://other.com/blog' });
    collector.add({ url: 'https://example.com/blog/skip' });
    expect(collector.leftOutByPath).toBe(false);
    collector.add({ url: 'https://example.com/docs' });
    collector.add({ url: 'https://example.com/docs/a' });
    collector.add({ url: 'https://example.com/docsearch' });
    expect(collector.leftOutByPath).toBe(true);
    expect(collector.links().map((l) => l.url)).toEqual(['https://example.com/docs', 'https://example.com/docs/a']);
  });
});
