/**
 * What main content reads from the page's head: its title (lead-in rules compare headings with
 * it) and its description (the fallback for a page with no content in the markup).
 */
import { attr } from './walk.ts';

/** The page title: og:title, else <title>, with a trailing " | Site" / " - Site" part cut. */
export function pageTitle(doc: Document): string {
  let og = '';
  let title = '';
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName === 'TITLE' && !title) title = c.textContent ?? '';
    else if (c.tagName === 'META' && attr(c, 'property') === 'og:title') og = attr(c, 'content') ?? '';
  }
  const raw = (og || title).replace(/\s+/g, ' ').trim();
  const cut = raw.split(/\s[|\-–—»:]\s/);
  return cut.length > 1 && cut[0]!.split(' ').length >= 3 ? cut[0]! : raw;
}

/** Every headline the head gives: og:title and `<title>`, whole (site name included). */
export function pageTitles(doc: Document): string[] {
  const out: string[] = [];
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName === 'TITLE') out.push(c.textContent ?? '');
    else if (c.tagName === 'META' && (attr(c, 'property') === 'og:title' || attr(c, 'name') === 'twitter:title'))
      out.push(attr(c, 'content') ?? '');
  }
  return out;
}

/** The site's own name as the head gives it (og:site_name, else application-name), or ''. */
export function siteName(doc: Document): string {
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName !== 'META') continue;
    if (attr(c, 'property') === 'og:site_name' || attr(c, 'name') === 'application-name') return (attr(c, 'content') ?? '').trim();
  }
  return '';
}

/** The page's meta / og description, whitespace collapsed. */
export function pageDescription(doc: Document): string {
  const head = doc.head;
  let found = '';
  if (head) {
    for (let c = head.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName !== 'META') continue;
      const key = (attr(c, 'name') ?? attr(c, 'property') ?? '').toLowerCase();
      if (key === 'description' || key === 'og:description') {
        const v = (attr(c, 'content') ?? '').replace(/\s+/g, ' ').trim();
        if (v.length > found.length) found = v;
      }
    }
  }
  return found;
}
