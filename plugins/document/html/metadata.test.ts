// Metadata sources one by one (favicon, meta tags, microdata, byline) and their priorities.
import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { extractMetadata, firstText, normaliseLanguage } from './metadata.ts';
import { declaredIconSize, pickFavicon } from './favicon.ts';
import { itemValue, readMicrodata } from './microdata.ts';
import { readByline, visibleText } from './byline.ts';
import { readMetaTags, metaValue } from './meta-tags.ts';

const dom = (html: string) => parseHtmlDocument(html);

describe('favicon', () => {
  test('sizes: largest edge, "any" counts as scalable, touch icons default to 180', () => {
    const [a, b, c, d] = [
      ...dom(
        '<html><head><link rel="icon" sizes="16x16 48x48"><link rel="icon" sizes="any"><link rel="apple-touch-icon"><link rel="icon"></head></html>',
      ).querySelectorAll('link'),
    ];
    expect([a, b, c, d].map((l) => declaredIconSize(l!))).toEqual([48, 1024, 180, 0]);
  });

  test('the largest declared icon wins, resolved against <base>', () => {
    const page = dom(
      '<html><head><base href="https://cdn.example/assets/"><link rel="icon" href="i16.png" sizes="16x16"><link rel="apple-touch-icon" href="touch.png"><link rel="icon" href="i32.png" sizes="32x32"></head></html>',
    );
    expect(pickFavicon(page, 'https://cdn.example/assets/', 'https://www.example/a/b')).toBe('https://cdn.example/assets/touch.png');
  });

  test('no declared icon: /favicon.ico at the origin', () => {
    expect(pickFavicon(dom('<html><head></head></html>'), 'https://www.example/a/b?q=1', 'https://www.example/a/b?q=1')).toBe(
      'https://www.example/favicon.ico',
    );
  });
});

describe('helpers', () => {
  test('firstText skips empty and whitespace values', () => {
    expect(firstText(null, '  ', undefined, ' a\n b ')).toBe('a b');
    expect(firstText()).toBeNull();
  });

  test('normaliseLanguage', () => {
    expect(normaliseLanguage('en_us')).toBe('en-US');
    expect(normaliseLanguage('zh-Hant-TW')).toBe('zh-Hant-TW');
    expect(normaliseLanguage('de, en;q=0.5')).toBe('de');
    expect(normaliseLanguage('not a language')).toBeNull();
    expect(normaliseLanguage('')).toBeNull();
  });

  test('meta tags are case-insensitive and the first value wins', () => {
    const tags = readMetaTags(
      dom(
        '<html><head><meta name="DC.Date.Issued" content="2020-01-01"><meta property="og:image" content="a.png"><meta property="og:image" content="b.png"><meta name="x" content=""></head></html>',
      ),
    );
    expect(metaValue(tags, ['dc.date.issued'])).toBe('2020-01-01');
    expect(metaValue(tags, ['og:image:url', 'og:image'])).toBe('a.png');
    expect(tags.has('x')).toBe(false);
  });
});

describe('microdata', () => {
  test('values come from the attribute the element type dictates', () => {
    const page = dom(
      '<html><body><meta itemprop="a" content="m"><time itemprop="b" datetime="2020-02-02">Feb</time><a itemprop="c" href="/x">x</a><img itemprop="d" src="/i.png"><span itemprop="e"> t  u </span></body></html>',
    );
    expect([...page.querySelectorAll('[itemprop]')].map(itemValue)).toEqual(['m', '2020-02-02', '/x', '/i.png', 't u']);
  });

  test('without a main item, a stray itemprop=name is not the title', () => {
    const page = dom(
      '<html><body><div itemscope itemtype="https://schema.org/Organization"><span itemprop="name">ACME</span></div><span itemprop="author">Kim Park</span></body></html>',
    );
    expect(readMicrodata(page)).toEqual({ title: null, description: null, author: 'Kim Park', published: null, image: null });
  });
});

describe('byline', () => {
  test('prefers rel=author over a looser .byline', () => {
    expect(readByline(dom('<html><body><p class="byline">Story: City desk</p><a rel="author" href="/a">Lee Chan</a></body></html>'))).toBe(
      'Lee Chan',
    );
  });

  test('elements that touch without a space are kept apart', () => {
    const page = dom(
      '<html><body><div class="byline"><span>Lucas Nolan</span><span>22 Dec 2016</span><span>651</span></div></body></html>',
    );
    expect(visibleText(page.querySelector('.byline')!)).toBe('Lucas Nolan | 22 Dec 2016 | 651');
    expect(readByline(page)).toBe('Lucas Nolan');
    expect(readByline(dom('<html><body><p class="byline"><span>By</span><a href="/a">Kim Lee</a></p></body></html>'))).toBe('Kim Lee');
  });

  test('skips bio boxes and settles on a real name', () => {
    expect(
      readByline(
        dom(
          '<html><body><div class="author">A very long biography of the person that goes on and on for more than ten words.</div><span class="author">Pat Kim</span></body></html>',
        ),
      ),
    ).toBe('Pat Kim');
  });

  test('a classic page\'s unclassed byline line: "By Jane Roe", or after the date', () => {
    expect(readByline(dom('<html><body><h1>Lamps</h1><p>By Derek Roe on August 9, 2012</p><p>Text of the post.</p></body></html>'))).toBe(
      'Derek Roe',
    );
    expect(readByline(dom('<html><body><div>October 25th, 2012 by Dana Meyer</div></body></html>'))).toBe('Dana Meyer');
    expect(readByline(dom('<html><body><p>Posted by Jo Ann Lee | 3 Comments</p></body></html>'))).toBe('Jo Ann Lee');
  });

  test("credits and sorting controls are not bylines; the first byline is the post's, not a commenter's", () => {
    expect(
      readByline(dom('<html><body><p>Photo by Sara Bjork</p><p>Powered by Movable Type</p><a>Sort by Price</a></body></html>')),
    ).toBeNull();
    expect(
      readByline(dom('<html><body><p>Posted by admin at 9:01 AM</p><p>Posted by: Ellen Marsh at 11:40 AM</p></body></html>')),
    ).toBeNull();
  });
});

describe('extractMetadata priorities', () => {
  test('twitter card fills in when Open Graph is missing; <title> comes after JSON-LD', () => {
    const page = dom(
      '<html><head><title>Doc title | Site</title><meta name="twitter:title" content="Card title"><meta name="twitter:image" content="//img.example/card.png"><meta name="twitter:description" content="Card text"></head><body></body></html>',
    );
    expect(extractMetadata({ dom: page, pageUrl: 'https://example.com/p', headers: {} })).toMatchObject({
      title: 'Card title',
      description: 'Card text',
      image: 'https://img.example/card.png',
    });
  });

  test('meta author tags and the publisher for site name', () => {
    const page = dom(
      '<html><head><meta name="author" content="By Ola Nordmann"><script type="application/ld+json">{"@type":"Article","headline":"H","publisher":{"@type":"Organization","name":"Nord Media"}}</script></head><body></body></html>',
    );
    expect(extractMetadata({ dom: page, pageUrl: 'https://example.com/p', headers: {} })).toMatchObject({
      author: 'Ola Nordmann',
      siteName: 'Nord Media',
      title: 'H',
    });
  });

  test('images must be http(s)', () => {
    const page = dom(
      '<html><head><meta property="og:image" content="data:image/png;base64,AAAA"><link rel="image_src" href="/share.png"></head><body></body></html>',
    );
    expect(extractMetadata({ dom: page, pageUrl: 'https://example.com/p', headers: {} }).image).toBe('https://example.com/share.png');
  });
});
