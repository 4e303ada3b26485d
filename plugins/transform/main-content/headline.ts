/**
 * The page's headline stays in its main content. Extraction picks the block that holds the text,
 * and on many pages the `<h1>` stands outside it (in a header band above the body column, or in a
 * `<header>` that junk removal takes with the site's banner). A reader, and a model reading one
 * chunk of the content, then loses its subject. The headline is found before extraction changes
 * the page (the first `<h1>`, else `<h2>`, that says what one of the page's titles says, so a
 * logo's `<h1>` is not taken for a title that merely ends with the site's name) and, when the
 * content does not already hold it, put back as its first heading.
 */
import { elementsNamed } from '../../../core/kit.ts';
import { wordsOf } from './metalines.ts';

const CANDIDATES = new Set(['h1', 'h2']);
const HEADING_NAMES = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Share of the heading's words found in the title … */
const IN_TITLE = 0.8;
/** … and share of the title's words it says: most of it, not the site name at its end. */
const COVERS = 0.5;
/** A headline longer than this (characters) is a paragraph marked up as a heading, not a name. */
const MAX_HEADLINE = 300;

export interface Headline {
  tag: string;
  text: string;
}

const collapse = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Whether `heading` says what one of `titles` says (most of its words, nearly all of them the title's). */
function namesPage(heading: string, titles: ReadonlyArray<ReadonlySet<string>>): boolean {
  const words = wordsOf(heading);
  if (!words.length) return false;
  return titles.some((title) => {
    let inTitle = 0;
    for (const word of words) if (title.has(word)) inTitle++;
    const covered = new Set(words.filter((word) => title.has(word))).size;
    return inTitle >= IN_TITLE * words.length && covered >= COVERS * title.size;
  });
}

/** Class or id words of a site's own name in its banner. */
const BRAND = /logo|brand|masthead|site-?(?:title|name)|blog-?(?:title|name)/i;
const BANNER = new Set(['HEADER', 'NAV']);
const CONTENT = new Set(['ARTICLE', 'MAIN']);

/**
 * A heading that names the site, not the page: it says the site's name (`og:site_name`), links
 * to the site's home, is marked as a logo or site title, or stands in the page's banner (a
 * `<header>` or `<nav>` outside any `<article>` or `<main>`).
 */
function isSiteName(el: Element, text: string, siteName: string): boolean {
  if (siteName && text.toLowerCase() === siteName) return true;
  const link = el.querySelector('a[href]') ?? el.closest('a[href]');
  const href = link?.getAttribute('href')?.trim() ?? '';
  if (href === '/' || /^https?:\/\/[^/]+\/?$/i.test(href)) return true;
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (CONTENT.has(n.tagName)) return false;
    if (BANNER.has(n.tagName) || n.getAttribute('role') === 'banner') return true;
    if (BRAND.test(`${n.getAttribute('class') ?? ''} ${n.getAttribute('id') ?? ''}`)) return true;
  }
  return false;
}

/**
 * The page's headline heading under `root`, read before extraction mutates it; null when none
 * names the page. `titles`: the page's titles (og:title, `<title>`); `siteName`: og:site_name.
 */
export function findHeadline(root: Element, titles: readonly string[], siteName = ''): Headline | null {
  const el = headlineElement(root, titles, siteName);
  return el ? { tag: el.tagName.toLowerCase(), text: collapse(el.textContent) } : null;
}

/** The page's headline heading under `root` (see findHeadline), or null. */
export function headlineElement(root: Element, titles: readonly string[], siteName = ''): Element | null {
  const sets = titles.map((title) => new Set(wordsOf(title))).filter((set) => set.size > 0);
  if (!sets.length) return null;
  const site = collapse(siteName).toLowerCase();
  const headings = elementsNamed(root, CANDIDATES, true);
  // (the first <h1> that names the page, else the first <h2>)
  for (const tag of CANDIDATES) {
    for (const el of headings) {
      if (el.localName !== tag) continue;
      const text = collapse(el.textContent);
      if (text && text.length <= MAX_HEADLINE && namesPage(text, sets) && !isSiteName(el, text, site)) return el;
    }
  }
  return null;
}

/** Elements a heading may open; any other content root (a table, a list, a paragraph) is wrapped first. */
const FLOW = new Set([
  'DIV',
  'ARTICLE',
  'SECTION',
  'MAIN',
  'BODY',
  'ASIDE',
  'HEADER',
  'FOOTER',
  'FORM',
  'CENTER',
  'TD',
  'LI',
  'DD',
  'BLOCKQUOTE',
  'FIGURE',
]);

/** `content`, with `headline` on top unless one of its headings already says it; a new wrapper when `content` cannot hold a heading. */
export function keepHeadline(content: Element, headline: Headline | null): Element {
  if (!headline) return content;
  for (const el of elementsNamed(content, HEADING_NAMES, true)) {
    if (collapse(el.textContent) === headline.text) return content;
  }
  const doc = content.ownerDocument;
  const heading = doc.createElement(headline.tag);
  heading.textContent = headline.text;
  if (FLOW.has(content.tagName)) {
    content.insertBefore(heading, content.firstChild);
    return content;
  }
  const box = doc.createElement('div');
  content.parentNode?.insertBefore(box, content);
  box.append(heading, content);
  return box;
}
