/**
 * Where a site shows its logo: the image in its header or home link that says it is a logo (by
 * class, id, alt or file name), and its touch icons. The brand format ranks all of them; the lead
 * format takes the best when structured data names none.
 */
import { absoluteUrl, isHttpUrl } from '../../../core/kit.ts';

export interface LogoCandidate {
  url: string;
  /** `header` (an image marked as the logo), `apple-touch-icon`, `json-ld`, `manifest`. */
  source: string;
  /** Declared pixel width, when known. */
  width?: number;
}

const LOGO_HINT = /logo|brand|wordmark/i;
const MAX_CANDIDATES = 10;

const hinted = (el: Element) =>
  ['class', 'id', 'alt', 'src', 'title'].some((a) => LOGO_HINT.test(el.getAttribute(a) ?? '')) ||
  LOGO_HINT.test(el.parentElement?.getAttribute('class') ?? '') ||
  LOGO_HINT.test(el.parentElement?.getAttribute('id') ?? '');

/** Logo images of the page, best first: marked images in the header or home link before marked images elsewhere. */
export function pageLogos(dom: Document, base: string): LogoCandidate[] {
  const seen = new Set<string>();
  const found: Array<LogoCandidate & { rank: number }> = [];
  for (const img of dom.querySelectorAll('img[src], image[href], source[srcset]')) {
    const src = img.getAttribute('src') ?? img.getAttribute('href') ?? img.getAttribute('srcset')?.split(/[\s,]/)[0] ?? '';
    const url = absoluteUrl(src, base);
    if (!url || !isHttpUrl(url) || seen.has(url)) continue;
    const inHeader = !!img.closest('header, nav, [role=banner], [class*=header i], [id*=header i]');
    const homeLink = !!img.closest('a[href="/"], a[rel~=home], a[href="./"]');
    if (!hinted(img) && !homeLink) continue;
    seen.add(url);
    const width = Number(img.getAttribute('width')) || undefined;
    found.push({ url, source: 'header', ...(width ? { width } : {}), rank: (inHeader || homeLink ? 0 : 2) + (hinted(img) ? 0 : 1) });
    if (found.length === MAX_CANDIDATES) break;
  }
  for (const link of dom.querySelectorAll('link[rel~="apple-touch-icon" i][href], link[rel~="apple-touch-icon-precomposed" i][href]')) {
    const url = absoluteUrl(link.getAttribute('href'), base);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const width = Number(/^(\d+)x\d+/.exec(link.getAttribute('sizes') ?? '')?.[1]) || undefined;
    found.push({ url, source: 'apple-touch-icon', ...(width ? { width } : {}), rank: 3 });
  }
  return found.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...logo }) => logo);
}
