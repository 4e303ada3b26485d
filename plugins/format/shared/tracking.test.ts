// Tracking junk: campaign parameters off URLs, tracking pixels out of markdown and assets, in every format that shows URLs.
import { describe, expect, test } from 'bun:test';
import { parseHtmlFragment } from '../../../core/kit.ts';
import { isPixelImage, isTrackingParam, stripTrackingParams } from './tracking.ts';
import { createTurndown, elementToMarkdown } from './markdown.ts';
import { collectAssets } from './assets.ts';
import { pageLinks } from './links.ts';

describe('stripTrackingParams', () => {
  test('utm_* and click ids go; other parameters keep their exact encoding, order and the fragment', () => {
    expect(stripTrackingParams('https://x.example/a?utm_source=news&id=7&UTM_Medium=mail&q=a%20b+c&fbclid=XYZ#part')).toBe(
      'https://x.example/a?id=7&q=a%20b+c#part',
    );
    expect(stripTrackingParams('https://x.example/a?gclid=1&mc_cid=2&_hsenc=3')).toBe('https://x.example/a');
    expect(stripTrackingParams('https://x.example/a?utm_campaign=x#top')).toBe('https://x.example/a#top');
    expect(stripTrackingParams('https://x.example/a?next=/b?c=1&utm_term=z')).toBe('https://x.example/a?next=/b?c=1');
  });

  test('URLs without tracking parameters come back unchanged, odd encodings included', () => {
    for (const url of [
      'https://x.example/a',
      'https://x.example/a?ref=home&page=2',
      'https://x.example/?%E0%A4%A=1',
      'https://x.example/#?utm_source=frag',
    ]) {
      expect(stripTrackingParams(url)).toBe(url);
    }
  });

  test('parameter names are matched decoded and case-insensitively, and only whole names', () => {
    expect(isTrackingParam('utm_content')).toBe(true);
    expect(isTrackingParam('FBCLID')).toBe(true);
    expect(isTrackingParam('utmost')).toBe(false);
    expect(stripTrackingParams('https://x.example/?utm%5Fsource=a&b=1')).toBe('https://x.example/?b=1');
  });
});

describe('tracking pixels', () => {
  const img = (attrs: string) => parseHtmlFragment(`<img ${attrs}>`).querySelector('img')!;

  test('1×1 images and tracker hosts are pixels; a screenshot of an analytics dashboard is not', () => {
    expect(isPixelImage(img('src="https://x.example/p.gif" width="1" height="1"'))).toBe(true);
    expect(isPixelImage(img('src="https://x.example/p.gif" height="0px"'))).toBe(true);
    expect(isPixelImage(img('src="https://www.facebook.com/tr?id=1&ev=PageView"'))).toBe(true);
    expect(isPixelImage(img('src="https://pixel.wp.com/g.gif?v=ext"'))).toBe(true);
    expect(isPixelImage(img('src="https://x.example/img/google-analytics-dashboard.png" width="800"'))).toBe(false);
    expect(isPixelImage(img('src="https://x.example/pixel-art/sprite.png"'))).toBe(false);
  });
});

describe('in the formats', () => {
  const html =
    '<p>Read <a href="https://x.example/post?utm_source=rss&amp;id=4">the post</a>.</p>' +
    '<img src="https://x.example/hero.jpg?utm_medium=social" alt="Hero"><img src="https://feeds.feedburner.com/~r/blog/~4/abc" width="1" height="1">';

  test('markdown links and images carry no tracking parameters and no pixels', () => {
    expect(elementToMarkdown(createTurndown(), parseHtmlFragment(html))).toBe(
      'Read [the post](https://x.example/post?id=4).\n\n![Hero](https://x.example/hero.jpg)',
    );
  });

  test('assets and links agree with the markdown', () => {
    const root = parseHtmlFragment(html);
    expect(collectAssets(root, 'https://x.example/')).toEqual([{ type: 'image', url: 'https://x.example/hero.jpg', alt: 'Hero' }]);
    expect(pageLinks(root, 'https://x.example/')).toEqual([{ text: 'the post', href: 'https://x.example/post?id=4' }]);
  });
});
