/**
 * The media a piece of content shows: images, videos and audio, as absolute http(s) URLs in
 * document order without repeats, tracking pixels and tracking parameters left out. The markdown
 * format publishes them in `doc.data` (its ASSETS_KEY); the json format calls `collectAssets` itself.
 */
import { absoluteUrl, attr, elementsNamed, isHttpUrl } from '../../../core/kit.ts';
import { isPixelImage, stripTrackingParams } from './tracking.ts';

const MEDIA = new Set(['img', 'video', 'audio']);

export interface Asset {
  type: 'image' | 'video' | 'audio';
  url: string;
  alt?: string;
}

export function collectAssets(root: Element, baseUrl: string): Asset[] {
  const assets: Asset[] = [];
  const seen = new Set<string>();
  const add = (type: Asset['type'], raw: string | null, alt?: string | null) => {
    const resolved = absoluteUrl(raw, baseUrl);
    const url = resolved && stripTrackingParams(resolved);
    if (!url || !isHttpUrl(url) || seen.has(url)) return;
    seen.add(url);
    const text = alt?.replace(/\s+/g, ' ').trim();
    assets.push(text ? { type, url, alt: text } : { type, url });
  };
  // (what querySelectorAll('img[src], video, audio') finds, in one sweep without the selector engine)
  for (const el of elementsNamed(root, MEDIA, true)) {
    if (el.tagName === 'IMG') {
      if (attr(el, 'src') === null) continue;
      if (!isPixelImage(el)) add('image', el.getAttribute('src'), el.getAttribute('alt'));
      continue;
    }
    const type = el.tagName === 'VIDEO' ? 'video' : 'audio';
    add(type, el.getAttribute('src'));
    for (const source of el.querySelectorAll('source[src]')) add(type, source.getAttribute('src'));
  }
  return assets;
}
