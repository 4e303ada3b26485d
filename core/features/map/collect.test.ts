// Dedupe keys, site scope (www, subdomains, private suffixes), search and the collector's limit.
import { describe, expect, test } from 'bun:test';
import { LinkCollector, linkKey, searchFilter, siteScope } from './collect.ts';

describe('linkKey', () => {
  test('fragment, trailing slash, default port and query order do not matter; case of the path does', () => {
    const key = linkKey('https://example.com/a?b=2&a=1');
    for (const same of ['https://EXAMPLE.com:443/a/?a=1&b=2#x', 'https://example.com/a?a=1&b=2']) expect(linkKey(same)).toBe(key);
    expect(linkKey('https://example.com/A?a=1&b=2')).not.toBe(key);
    expect(linkKey('http://example.com/a?a=1&b=2')).not.toBe(key);
    expect(linkKey('https://example.com/')).toBe('https://example.com/');
  });
});

describe('siteScope', () => {
  const at = (href: string) => new URL(href);
  test('the same host, www or not', () => {
    const inScope = siteScope(['example.com'], false);
    expect(inScope(at('https://www.example.com/x'))).toBe(true);
    expect(inScope(at('http://example.com:8080/x'))).toBe(true);
    expect(inScope(at('https://blog.example.com/x'))).toBe(false);
  });

  test('subdomains share the registrable domain; private suffixes keep sites apart', () => {
    expect(siteScope(['example.co.uk'], true)(at('https://blog.example.co.uk/'))).toBe(true);
    expect(siteScope(['example.co.uk'], true)(at('https://other.co.uk/'))).toBe(false);
    expect(siteScope(['alice.github.io'], true)(at('https://bob.github.io/'))).toBe(false);
    expect(siteScope(['127.0.0.1'], true)(at('http://127.0.0.2/'))).toBe(false);
  });
});

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
  test('keeps the first spelling, merges later titles and dates, and stops at the limit', () => {
    const collector = new LinkCollector(2, () => true);
    collector.setScope(siteScope(['example.com'], false));
    collector.add({ url: 'https://example.com/a/', lastmod: '2024-01-01T00:00:00.000Z' });
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
});
