// JSON-LD parsing, repair and the choice of the page's primary node.
import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { decodeEntities, parseJsonLd, readJsonLd } from './json-ld.ts';

const page = (...blocks: string[]) =>
  parseHtmlDocument(
    `<html><head>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join('')}</head><body></body></html>`,
  );

describe('parseJsonLd', () => {
  test('repairs raw newlines inside strings and trailing commas', () => {
    expect(parseJsonLd('{"headline": "Two\nlines", "tags": ["a", "b",],}')).toEqual({ headline: 'Two lines', tags: ['a', 'b'] });
  });

  test('strips CDATA and comment wrappers', () => {
    expect(parseJsonLd('/*<![CDATA[*/{"a":1}/*]]>*/')).toEqual({ a: 1 });
    expect(parseJsonLd('<!-- {"a":1} -->')).toEqual({ a: 1 });
  });

  test('gives up quietly on garbage', () => {
    expect(parseJsonLd('{not json')).toBeNull();
  });
});

test('HTML entities left in JSON strings are decoded', () => {
  expect(decodeEntities('Tom &amp; Jerry &#8211; &#x2019;s &quot;best&quot; &bogus;')).toBe('Tom & Jerry – ’s "best" &bogus;');
  expect(readJsonLd(page('{"@type":"Article","headline":"Fish &amp; chips"}')).title).toBe('Fish & chips');
});

describe('readJsonLd', () => {
  test('an article in a top-level array, author as a plain string, prefixed type', () => {
    const ld = readJsonLd(
      page(
        '[{"@type":"BreadcrumbList"},{"@type":"schema:BlogPosting","headline":"Hello","author":"Ann Lee","datePublished":"2021-01-02","image":["https://x.example/a.png","https://x.example/b.png"]}]',
      ),
    );
    expect(ld).toMatchObject({ title: 'Hello', author: 'Ann Lee', published: '2021-01-02', image: 'https://x.example/a.png' });
  });

  test('an article beats the WebPage and Product in other blocks', () => {
    const ld = readJsonLd(
      page(
        '{"@type":"WebPage","name":"Page name","inLanguage":"nl"}',
        '{"@type":"Product","name":"Widget"}',
        '{"@type":"http://schema.org/NewsArticle","headline":"News","author":{"@type":"Person","givenName":"Ada","familyName":"Byron"},"publisher":{"@type":"Organization","name":"Daily"}}',
      ),
    );
    expect(ld).toMatchObject({ title: 'News', author: 'Ada Byron', publisher: 'Daily' });
  });

  test('a product page: name, description and image object', () => {
    const ld = readJsonLd(
      page(
        '{"@context":"https://schema.org","@type":"Product","name":"Trail shoe","description":"Light.","image":{"@type":"ImageObject","contentUrl":"/shoe.jpg"}}',
      ),
    );
    expect(ld).toMatchObject({ title: 'Trail shoe', description: 'Light.', image: '/shoe.jpg', author: null });
  });

  test('a WebPage whose mainEntity is the article', () => {
    const ld = readJsonLd(
      page(
        '{"@type":"WebPage","name":"Wrapper","mainEntity":{"@type":"Article","headline":"Inner","inLanguage":{"@type":"Language","alternateName":"pt-BR"}}}',
      ),
    );
    expect(ld).toMatchObject({ title: 'Inner', language: 'pt-BR' });
  });

  test('site name from a WebSite node; nothing else made up', () => {
    expect(readJsonLd(page('{"@type":"WebSite","name":"Example Site"}'))).toEqual({
      title: null,
      description: null,
      author: null,
      published: null,
      image: null,
      publisher: null,
      websiteName: 'Example Site',
      language: null,
    });
  });
});
