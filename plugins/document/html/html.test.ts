// HTML document plugin: detection by type and sniffing, parsing, and metadata of the fixture pages.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PARSE_LIMITS, htmlDocument, isHtmlResponse } from './html.ts';
import { htmlPage } from '../../../test/helpers/html-page.ts';
import { SCHEMA_TYPES } from '../../../core/kit.ts';
import type { FetchedResponse, PageDocument } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dir, 'fixtures', name), 'utf8');

function response(
  text: string | undefined,
  mediaType: string,
  finalUrl = 'https://example.com/page',
  extra: Partial<FetchedResponse> = {},
): FetchedResponse {
  const body = new TextEncoder().encode(text ?? '');
  return { status: 200, headers: {}, body, finalUrl, mediaType, text, ...extra };
}

async function parsed(html: string, url: string, headers: Record<string, string> = {}): Promise<PageDocument> {
  const handler = await htmlDocument.setup(DEFAULT_PARSE_LIMITS, testContext());
  const doc = testDocument({ url });
  doc.response = response(html, 'text/html', url, { headers });
  expect(handler.detect(doc)).toBe(true);
  await handler.parse(doc);
  return doc;
}

describe('detect', () => {
  test('takes HTML and XHTML by media type', () => {
    expect(isHtmlResponse(response('anything', 'text/html'))).toBe(true);
    expect(isHtmlResponse(response('<?xml version="1.0"?><html/>', 'application/xhtml+xml'))).toBe(true);
  });

  test('sniffs text/plain and untyped bodies, also when only bytes arrived', () => {
    expect(isHtmlResponse(response('\n  <!DOCTYPE html><html></html>', 'text/plain'))).toBe(true);
    expect(isHtmlResponse(response(undefined, '', undefined, { body: new TextEncoder().encode('\uFEFF<html lang="en">') }))).toBe(true);
    expect(isHtmlResponse(response('<p>hello', ''))).toBe(true);
    expect(isHtmlResponse(response('just words, no markup', 'text/plain'))).toBe(false);
    expect(isHtmlResponse(response('<bogus>', 'text/plain'))).toBe(false);
  });

  test('leaves other types alone even when they contain markup', () => {
    expect(isHtmlResponse(response('<html></html>', 'application/json'))).toBe(false);
    expect(isHtmlResponse(response('<html></html>', 'text/csv'))).toBe(false);
  });
});

describe('parse', () => {
  test('sets the DOM and the body as content root', async () => {
    const doc = await parsed('<html><head><title>T</title></head><body><p>Hi</p></body></html>', 'https://example.com/');
    expect(doc.dom?.querySelector('title')?.textContent).toBe('T');
    expect(doc.root?.tagName).toBe('BODY');
    expect(doc.root?.innerHTML).toBe('<p>Hi</p>');
  });

  test('places React streaming parts before cleaning, so a page without only_main_content keeps them', async () => {
    const html = `<html><body><main><!--$?--><template id="B:0"></template><p>Loading paragraph...</p><!--/$--></main>
      <div hidden id="S:0"><p>The streamed article text.</p></div></body></html>`;
    const doc = htmlPage(html);
    expect(doc.root!.textContent).toContain('The streamed article text.');
    expect(doc.root!.textContent).not.toContain('Loading');
  });

  test('markup before <html> (a script, then the doctype) lands where a browser puts it: the script in the head, the content in the body', async () => {
    const doc = await parsed(
      '<script>var a = 1</script><!doctype html><html><head><title>T</title></head><body><p>Hello from the body.</p><script>track()</script></body></html>',
      'https://example.com/',
    );
    expect(doc.metadata.title).toBe('T');
    expect(doc.dom?.head.innerHTML).toBe('<script>var a = 1</script><title>T</title>');
    expect(doc.root).toBe(doc.dom!.body);
    expect(doc.root?.innerHTML).toBe('<p>Hello from the body.</p><script>track()</script>');
  });

  test('repairs doubly encoded UTF-8 for every format', async () => {
    const doc = await parsed(
      '<html><body><p>It\u00e2\u0080\u0099s the Earth\u00e2\u0080\u0099s turn.</p></body></html>',
      'https://example.com/',
    );
    expect(doc.root!.textContent).toBe('It\u2019s the Earth\u2019s turn.');
  });

  test('decodes a body that arrived without text using the declared charset', async () => {
    const handler = await htmlDocument.setup(DEFAULT_PARSE_LIMITS, testContext());
    const doc = testDocument({ url: 'https://example.com/' });
    const latin1 = Uint8Array.from([...'<p>caf'].map((c) => c.charCodeAt(0)).concat([0xe9, 0x3c, 0x2f, 0x70, 0x3e]));
    doc.response = { status: 200, headers: {}, body: latin1, finalUrl: 'https://example.com/', mediaType: '', charset: 'windows-1252' };
    expect(handler.detect(doc)).toBe(true);
    await handler.parse(doc);
    expect(doc.root?.textContent).toBe('café');
  });

  test('news article: JSON-LD, Open Graph, Twitter and icons', async () => {
    const doc = await parsed(fixture('news-article.html'), 'https://riverside-gazette.example/news/2024/03/cycle-lanes');
    expect(doc.metadata).toEqual({
      title: 'Council approves new cycle lanes on Mill Road',
      description: 'The city council voted 7-2 to build protected cycle lanes.',
      author: 'Jane Doe, Tom Roe',
      publishedDate: '2024-03-05T08:15:00.000Z',
      language: 'en-GB',
      siteName: 'The Riverside Gazette',
      image: 'https://riverside-gazette.example/media/2024/03/mill-road.jpg',
      favicon: 'https://riverside-gazette.example/favicon-192.png',
      wordCount: 0,
    });
  });

  test('blog with only microdata: scoped to the post, not its comments or breadcrumbs', async () => {
    const doc = await parsed(fixture('blog-microdata.html'), 'https://crumb.example/blog/2023/sourdough/');
    expect(doc.metadata).toEqual({
      title: 'Sourdough at altitude',
      description: '',
      author: 'Maria Huber',
      publishedDate: '2023-11-20T07:30:00.000Z',
      language: 'de-AT',
      siteName: null,
      image: 'https://crumb.example/img/loaf.jpg',
      favicon: 'https://crumb.example/blog/2023/sourdough/favicon.ico',
      wordCount: 0,
    });
  });

  test('page with nothing but a title, a visible byline and a <time>', async () => {
    const doc = await parsed(fixture('byline-only.html'), 'https://field.example/notes/compost');
    expect(doc.metadata).toEqual({
      title: 'Notes from the field',
      description: '',
      author: 'Sam Lee',
      publishedDate: '2022-06-01T14:00:00.000Z',
      language: null,
      siteName: null,
      image: null,
      favicon: 'https://field.example/favicon.ico',
      wordCount: 0,
    });
  });

  test('product page with only Twitter card tags: title, description, image; a handle is not an author', async () => {
    const doc = await parsed(fixture('twitter-card.html'), 'https://potager.example/fr/');
    expect(doc.metadata).toEqual({
      title: 'Potager Pro : le calendrier de semis qui s’adapte à votre climat',
      description: 'Indiquez votre code postal, Potager Pro calcule les dates de semis et de récolte.',
      author: null,
      publishedDate: null,
      language: 'fr-CA',
      siteName: null,
      image: 'https://potager.example/static/cards/calendrier.png',
      favicon: 'https://potager.example/logo.svg',
      wordCount: 0,
    });
  });

  test('scholarly article: citation_* and Dublin Core <meta> tags, every author in reading order', async () => {
    const doc = await parsed(fixture('scholarly-article.html'), 'https://soil-journal.example/articles/12-3-4');
    expect(doc.metadata).toEqual({
      title: 'Earthworm density under no-till management: a ten-year field study',
      description: 'Earthworm counts on paired plots over ten seasons show no-till doubles density.',
      author: 'Chidi Okafor, Anna Lindqvist',
      publishedDate: '2023-05-17',
      language: 'en',
      siteName: 'Journal of Soil Science',
      image: null,
      favicon: 'https://soil-journal.example/assets/journal.ico',
      wordCount: 0,
    });
  });

  test("press release with a visible dateline only: the publication date, not the update or a comment's", async () => {
    const doc = await parsed(fixture('press-release.html'), 'https://city.example/newsroom/libraries');
    expect(doc.metadata).toEqual({
      title: 'City opens three new libraries | Newsroom',
      description: '',
      author: 'Priya Raman',
      publishedDate: '2025-03-12',
      language: 'en',
      siteName: null,
      image: null,
      favicon: 'https://city.example/favicon.ico',
      wordCount: 0,
    });
  });

  test('language falls back to the Content-Language header', async () => {
    const doc = await parsed('<html><body><p>x</p></body></html>', 'https://example.com/', { 'content-language': 'fr-ca, en' });
    expect(doc.metadata.language).toBe('fr-CA');
  });

  test('the schema.org types the page declares, for main content to tell its type by: JSON-LD graph and main entity, every microdata item', async () => {
    const doc = await parsed(
      `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Shop"},{"@type":["CollectionPage"],"mainEntity":{"@type":"ItemList"}}]}</script></head>
      <body><div itemscope itemtype="https://schema.org/Product"><span itemprop="name">A</span></div><div itemscope itemtype="http://schema.org/Product"><span itemprop="name">B</span></div></body></html>`,
      'https://example.com/c',
    );
    expect(doc.data.get(SCHEMA_TYPES)).toEqual(['WebSite', 'CollectionPage', 'ItemList', 'Product', 'Product']);
  });

  test('title falls back to the first h1 when there is no <title>', async () => {
    const doc = await parsed('<html><body><h1> Release   notes </h1></body></html>', 'https://example.com/');
    expect(doc.metadata.title).toBe('Release notes');
  });
});
