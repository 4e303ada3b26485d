/** The URL module: parsing, the one dedupe key (crawl and map), resolution against a base and <base href>. */
import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../dom.ts';
import {
  absoluteUrl,
  dedupeKey,
  loggableUrl,
  documentBaseUrl,
  httpUrl,
  isHttpUrl,
  MAX_URL_LENGTH,
  normalizeUrl,
  withoutHash,
} from './url.ts';

const key = (url: string) => normalizeUrl(url)?.key;

describe('dedupe key', () => {
  test('fragments, default ports, trailing slashes, query order and escape case do not make a new page', () => {
    const same = [
      'http://Example.COM/docs/intro?b=2&a=1',
      'http://example.com:80/docs/intro?a=1&b=2',
      'http://example.com/docs/intro/?a=1&b=2#section',
      'http://example.com/docs/intro//?a=1&b=2',
    ];
    expect(new Set(same.map(key)).size).toBe(1);
    expect(key('https://example.com:443/')).toBe(key('https://example.com/'));
    expect(key('http://example.com/a%2fb')).toBe(key('http://example.com/a%2Fb'));
    expect(key('http://example.com/page?')).toBe(key('http://example.com/page'));
    expect(key('http://example.com/page?#top')).toBe('http://example.com/page');
    expect(dedupeKey('https://example.com/')).toBe('https://example.com/');
    expect(key('https://EXAMPLE.com:443/a/?a=1&b=2#x')).toBe(key('https://example.com/a?b=2&a=1'));
    expect(dedupeKey(new URL('https://example.com/a/?b=1&a=2#x'))).toBe('https://example.com/a?a=2&b=1');
  });

  test('what does change the page stays distinct, www. included', () => {
    expect(key('http://example.com/a')).not.toBe(key('https://example.com/a'));
    expect(key('http://example.com:8080/a')).not.toBe(key('http://example.com/a'));
    expect(key('http://example.com/a?x=1')).not.toBe(key('http://example.com/a?x=2'));
    expect(key('http://example.com/A')).not.toBe(key('http://example.com/a'));
    expect(key('http://www.example.com/a')).not.toBe(key('http://example.com/a'));
  });
});

describe('parsing', () => {
  test('the URL keeps the link as written, minus its fragment, resolved against a base', () => {
    expect(normalizeUrl('/docs/?b=2&a=1#top', 'http://Example.com/start')).toEqual({
      url: 'http://example.com/docs/?b=2&a=1',
      key: 'http://example.com/docs?a=1&b=2',
      host: 'example.com',
      path: '/docs/',
    });
    expect(httpUrl('  https://example.com/a#b ')).toBe('https://example.com/a');
  });

  test('non-http schemes, garbage, empty and absurdly long links are refused', () => {
    for (const bad of [
      'mailto:a@example.com',
      'javascript:alert(1)',
      'ftp://example.com/',
      'http://',
      'http://[bad',
      '',
      '   ',
      undefined,
      null,
    ]) {
      expect(normalizeUrl(bad)).toBeNull();
      expect(httpUrl(bad)).toBeNull();
    }
    expect(httpUrl(`http://example.com/${'a'.repeat(MAX_URL_LENGTH)}`)).toBeNull();
    expect(httpUrl(`http://example.com/${'a'.repeat(MAX_URL_LENGTH - 30)}`)).not.toBeNull();
    expect(httpUrl('relative/only')).toBeNull();
  });

  test('isHttpUrl looks at the scheme only; withoutHash cuts at the first #', () => {
    expect([isHttpUrl('HTTPS://x.example/'), isHttpUrl('http://x'), isHttpUrl('mailto:x@y'), isHttpUrl('/a')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([withoutHash('https://x.example/a?b#c#d'), withoutHash('/a')]).toEqual(['https://x.example/a?b', '/a']);
  });
});

describe('resolution', () => {
  test('absoluteUrl resolves any scheme as a browser would; empty or unparseable is null', () => {
    expect(absoluteUrl(' ../b?x#y ', 'https://a.example/p/q/')).toBe('https://a.example/p/b?x#y');
    expect(absoluteUrl('mailto:help@a.example', 'https://a.example/')).toBe('mailto:help@a.example');
    expect(absoluteUrl('  ', 'https://a.example/')).toBeNull();
    expect(absoluteUrl(null, 'https://a.example/')).toBeNull();
    expect(absoluteUrl('http://[bad', 'https://a.example/')).toBeNull();
  });

  test('base URL: the first <base href>, relative to the page, never a javascript: or data: one', () => {
    const dom = (head: string) => parseHtmlDocument(`<html><head>${head}</head><body></body></html>`);
    expect(documentBaseUrl(dom('<base target="_blank"><base href="https://b.example/x/">'), 'https://a.example/')).toBe(
      'https://b.example/x/',
    );
    expect(documentBaseUrl(dom('<base href="/docs/v2/"><base href="https://c.example/">'), 'https://a.example/start/p')).toBe(
      'https://a.example/docs/v2/',
    );
    expect(documentBaseUrl(dom('<base href="javascript:alert(1)">'), 'https://a.example/p')).toBe('https://a.example/p');
    expect(documentBaseUrl(dom('<base href="data:text/html,x">'), 'https://a.example/p')).toBe('https://a.example/p');
    expect(documentBaseUrl(null, 'https://a.example/p')).toBe('https://a.example/p');
    // Any object with querySelector will do: core/net does not depend on a DOM implementation.
    expect(documentBaseUrl({ querySelector: () => ({ getAttribute: () => 'sub/' }) }, 'https://a.example/p')).toBe(
      'https://a.example/sub/',
    );
    expect(absoluteUrl('img.png', documentBaseUrl(dom('<base href="/assets/">'), 'https://a.example/blog/post'))).toBe(
      'https://a.example/assets/img.png',
    );
  });
});

describe('loggableUrl', () => {
  test('hides user name and password, keeps the rest', () => {
    expect(loggableUrl('http://alice:s3cret@example.com:8080/a?b=1')).toBe('http://redacted:redacted@example.com:8080/a?b=1');
    expect(loggableUrl(new URL('https://token@example.com/'))).toBe('https://redacted@example.com/');
    expect(loggableUrl('https://example.com/x')).toBe('https://example.com/x');
  });
});
