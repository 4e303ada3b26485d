/**
 * What map discovery takes from the start page, without running the scrape pipeline: its title,
 * its links (with their text as title) and the RSS/Atom feeds it announces with
 * `<link rel="alternate">`. Relative URLs resolve against `<base href>` or the final URL.
 */
import { parseHtmlDocument } from '../../dom.ts';
import { absoluteUrl, type FoundLink } from './documents.ts';

export interface StartPage {
  title?: string;
  links: FoundLink[];
  feeds: string[];
}

const FEED_TYPES = /^application\/(rss|atom|rdf)\+xml$/i;
const MAX_TITLE_CHARS = 300;

const clean = (text: string | null | undefined) => {
  const collapsed = (text ?? '').replace(/\s+/g, ' ').trim();
  return collapsed ? collapsed.slice(0, MAX_TITLE_CHARS) : undefined;
};

export function readStartPage(html: string, pageUrl: string): StartPage {
  const doc = parseHtmlDocument(html);
  const base = absoluteUrl(doc.querySelector('base[href]')?.getAttribute('href') ?? undefined, pageUrl) ?? pageUrl;
  const links: FoundLink[] = [];
  for (const anchor of doc.querySelectorAll('a[href]')) {
    const url = absoluteUrl(anchor.getAttribute('href') ?? undefined, base);
    if (!url) continue;
    const title = clean(anchor.textContent) ?? clean(anchor.getAttribute('title')) ?? clean(anchor.querySelector('img[alt]')?.getAttribute('alt'));
    links.push(title ? { url, title } : { url });
  }
  const feeds: string[] = [];
  for (const el of doc.querySelectorAll('link[rel~="alternate"][href]')) {
    if (!FEED_TYPES.test(el.getAttribute('type')?.trim() ?? '')) continue;
    const url = absoluteUrl(el.getAttribute('href') ?? undefined, base);
    if (url) feeds.push(url);
  }
  return { title: clean(doc.querySelector('title')?.textContent), links, feeds };
}
