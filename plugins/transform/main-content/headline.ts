/**
 * The page's headline stays in its main content. Extraction picks the block that holds the text,
 * and on many pages the `<h1>` stands outside it (in a header band above the body column, or in a
 * `<header>` that junk removal takes with the site's banner). A reader, and a model reading one
 * chunk of the content, then loses its subject. The headline is found before extraction changes
 * the page (the first `<h1>`, else `<h2>`, that says what one of the page's titles says, so a
 * logo's `<h1>` is not taken for a title that merely ends with the site's name) and, when the
 * content does not already hold it, put back as its first heading.
 */
import { wordsOf } from './metalines.ts';

const CANDIDATES = ['h1', 'h2'];
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

/**
 * The page's headline heading under `root`, read before extraction mutates it; null when none
 * names the page. `titles`: the page's titles (og:title, `<title>` whole and without the site's name).
 */
export function findHeadline(root: Element, titles: readonly string[]): Headline | null {
  const el = headlineElement(root, titles);
  return el ? { tag: el.tagName.toLowerCase(), text: collapse(el.textContent) } : null;
}

/** The page's headline heading under `root` (see findHeadline), or null. */
export function headlineElement(root: Element, titles: readonly string[]): Element | null {
  const sets = titles.map((title) => new Set(wordsOf(title))).filter((set) => set.size > 0);
  if (!sets.length) return null;
  for (const tag of CANDIDATES) {
    for (const el of root.querySelectorAll(tag)) {
      const text = collapse(el.textContent);
      if (text && text.length <= MAX_HEADLINE && namesPage(text, sets)) return el;
    }
  }
  return null;
}

/** Puts `headline` on top of `content` unless one of its headings already says it. */
export function keepHeadline(content: Element, headline: Headline | null): void {
  if (!headline) return;
  for (const el of content.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    if (collapse(el.textContent) === headline.text) return;
  }
  const heading = content.ownerDocument.createElement(headline.tag);
  heading.textContent = headline.text;
  content.insertBefore(heading, content.firstChild);
}
