// Links format: whole-page scope, absolute http(s) hrefs, deduplication.
import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';
import { linksFormat } from './links.ts';
import { isSamePageJump, linkText, pageLinks } from '../shared/links.ts';

const PAGE = `<!doctype html><html><head><base href="https://www.example.com/blog/"></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="#main">Skip to content</a></nav>
<main id="main">
  <a href="post-1">First   post</a>
  <a href="post-1">First post</a>
  <a href="post-1">Read more</a>
  <a href="https://other.example/x?y=1#frag">Elsewhere</a>
  <a href="mailto:a@example.com">Mail</a> <a href="tel:+123">Call</a> <a href="javascript:void(0)">JS</a>
  <a href=""></a> <a href="  ">blank</a>
  <a href="/shop"><img src="/cart.svg" alt="Cart"></a>
  <a href="/search" aria-label="Search"><svg></svg></a>
</main>
<footer><a href="https://www.example.com/privacy">Privacy</a></footer>
</body></html>`;

describe('pageLinks', () => {
  test('absolute http(s), deduplicated by href and text, fragments and other schemes dropped', () => {
    const dom = parseHtmlDocument(PAGE);
    expect(pageLinks(dom, 'https://www.example.com/blog/')).toEqual([
      { text: 'Home', href: 'https://www.example.com/' },
      { text: 'About us', href: 'https://www.example.com/about' },
      { text: 'First post', href: 'https://www.example.com/blog/post-1' },
      { text: 'Read more', href: 'https://www.example.com/blog/post-1' },
      { text: 'Elsewhere', href: 'https://other.example/x?y=1#frag' },
      { text: 'Cart', href: 'https://www.example.com/shop' },
      { text: 'Search', href: 'https://www.example.com/search' },
      { text: 'Privacy', href: 'https://www.example.com/privacy' },
    ]);
  });

  test('a fragment link made absolute by URL resolution is still a jump within the page', () => {
    const dom = parseHtmlDocument(
      '<html><body><a href="https://x.example/a?p=1#top">Top</a><a href="https://x.example/a?p=2#top">Other page</a><a href="https://x.example/a?p=1">Same page</a></body></html>',
    );
    expect(pageLinks(dom, 'https://x.example/a?p=1').map((l) => l.text)).toEqual(['Other page', 'Same page']);
    expect(isSamePageJump('https://x.example/a#b', 'https://x.example/a#c')).toBe(true);
  });

  test('link text falls back to aria-label, title, then image alt', () => {
    const a = (html: string) => parseHtmlDocument(`<html><body>${html}</body></html>`).querySelector('a')!;
    expect(linkText(a('<a href="/" title="Go home"><img src="x.png" alt="Logo"></a>'))).toBe('Go home');
    expect(linkText(a('<a href="/"><img src="x.png" alt=" Logo "></a>'))).toBe('Logo');
    expect(linkText(a('<a href="/"></a>'))).toBe('');
  });
});

describe('plugin', () => {
  test('reads the whole page, not only the narrowed content root, honouring <base>', async () => {
    const handler = await linksFormat.setup({}, testContext());
    const doc = testDocument({ url: 'https://www.example.com/blog/', formats: ['links'] });
    doc.response = {
      status: 200,
      headers: {},
      body: new Uint8Array(),
      finalUrl: 'https://www.example.com/blog/',
      mediaType: 'text/html',
      text: PAGE,
    };
    doc.dom = parseHtmlDocument(PAGE);
    doc.root = doc.dom.querySelector('footer');
    const links = (await handler.render(doc)) as Array<{ text: string; href: string }>;
    expect(links.map((l) => l.text)).toEqual(['Home', 'About us', 'First post', 'Read more', 'Elsewhere', 'Cart', 'Search', 'Privacy']);
    expect(linksFormat.provides).toEqual(['format:links']);
  });

  test('no document: no links', async () => {
    const handler = await linksFormat.setup({}, testContext());
    expect(await handler.render(testDocument({ url: 'https://example.com/' }))).toEqual([]);
  });
});
