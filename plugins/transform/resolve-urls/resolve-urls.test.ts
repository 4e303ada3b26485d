// URL resolution: <base>, links, media, srcset and lazy-loaded images (the URL rules themselves: core/net/url.test.ts).
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';
import { resolveUrlsTransform } from './resolve-urls.ts';
import { isPlaceholderSrc } from '../shared/lazy.ts';

async function resolved(fixture: string, finalUrl: string) {
  const handler = await resolveUrlsTransform.setup({}, testContext());
  const doc = testDocument({ url: 'https://requested.example/' });
  const text = readFileSync(join(import.meta.dir, 'fixtures', fixture), 'utf8');
  doc.response = { status: 200, headers: {}, body: new Uint8Array(), finalUrl, mediaType: 'text/html', text };
  doc.dom = parseHtmlDocument(text);
  doc.root = doc.dom.body;
  await handler.apply(doc);
  return doc.root;
}

describe('relative URLs and <base>', async () => {
  const root = await resolved('relative-base.html', 'https://example.org/start/index.html');
  const attr = (selector: string, name: string) => [...root.querySelectorAll(selector)].map((el) => el.getAttribute(name));

  test('links resolve against <base href>, itself relative to the final URL', () => {
    expect(attr('a', 'href')).toEqual([
      'https://example.org/docs/v2/setup.html',
      'https://example.org/docs/v1/setup.html',
      'https://example.org/changelog',
      'https://example.org/docs/v2/#options',
      'https://cdn.example.org/file.zip',
      'mailto:help@example.org',
    ]);
  });

  test('javascript: links lose the link and keep their text; javascript: areas lose the href', () => {
    expect(root.querySelector('p')!.textContent!.replace(/\s+/g, ' ')).toContain('or chat with support.');
    expect(root.querySelector('p b')!.parentElement!.tagName).toBe('P');
    expect(attr('area', 'href')).toEqual([null, 'https://example.org/docs/v2/map/north.html']);
  });

  test('images, video, poster, tracks and sources', () => {
    expect(attr('img', 'src')).toEqual(['https://example.org/docs/v2/img/diagram.png']);
    expect(attr('video', 'src')).toEqual(['https://example.org/docs/v2/media/intro.mp4']);
    expect(attr('video', 'poster')).toEqual(['https://example.org/docs/v2/media/intro.jpg']);
    expect(attr('track', 'src')).toEqual(['https://example.org/docs/v2/media/intro.vtt']);
    expect(attr('source', 'src')).toEqual(['https://example.org/docs/v2/media/intro.mp3']);
  });
});

describe('lazy images', async () => {
  const root = await resolved('lazy-images.html', 'https://gallery.example/albums/summer');
  const images = Object.fromEntries([...root.querySelectorAll('img')].map((img) => [img.getAttribute('alt'), img]));

  test('data-src / data-original / data-lazy-src replace placeholders', () => {
    expect(images.Lake!.getAttribute('src')).toBe('https://gallery.example/photos/lake.jpg');
    expect(images.Forest!.getAttribute('src')).toBe('https://gallery.example/albums/photos/forest.jpg');
    expect(images.River!.getAttribute('src')).toBe('https://gallery.example/albums/photos/river.jpg');
  });

  test('a real src is kept even when a lazy attribute exists', () => {
    expect(images.Mountain!.getAttribute('src')).toBe('https://gallery.example/photos/thumb-mountain.jpg');
  });

  test('srcset is resolved and its largest candidate fills a missing src', () => {
    expect(images.City!.getAttribute('srcset')).toBe(
      'https://gallery.example/albums/photos/city-400.jpg 400w, https://gallery.example/albums/photos/city-1200.jpg 1200w',
    );
    expect(images.City!.getAttribute('src')).toBe('https://gallery.example/albums/photos/city-1200.jpg');
    expect(images.Desert!.getAttribute('src')).toBe('https://img.example/c_fill,w_600/desert.jpg');
  });

  test('an img in <picture> without src takes the largest <source> candidate', () => {
    expect(images.Beach!.getAttribute('src')).toBe('https://gallery.example/albums/photos/beach-1600.webp');
    expect(root.querySelector('picture source')!.getAttribute('srcset')).toBe(
      'https://gallery.example/albums/photos/beach-800.webp 800w, https://gallery.example/albums/photos/beach-1600.webp 1600w',
    );
  });
});

describe('helpers', () => {
  test('placeholders', () => {
    for (const src of [
      '',
      '  ',
      '#',
      'about:blank',
      'data:image/gif;base64,R0l',
      '/img/blank.gif',
      '/assets/lazy-placeholder.png',
      'spacer.gif?v=2',
      '/img/grey-16x9.png',
      'https://cdn.example/1x1.gif',
    ])
      expect(isPlaceholderSrc(src)).toBe(true);
    for (const src of [
      '/photos/lake.jpg',
      '/img/blanket.jpg',
      '/img/lazy-river.jpg',
      '/blank-verse/cover.jpg',
      '/img/default-avatar-jane.png',
    ])
      expect(isPlaceholderSrc(src)).toBe(false);
  });
});
