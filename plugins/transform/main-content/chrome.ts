/**
 * The site's chrome above a story, where it sits inside the story's container: an edition picker
 * ("US | UK | Australia"), "Login" and "Subscribe" links, a "Breaking news" label, a row of section
 * links. A story starts at its headline: above the headline heading, the lines (there is no
 * paragraph of the story before its headline; a sentence there is a note the post puts above its
 * title) are the site's. Without the headline in the content,
 * a run of short link lines (a menu, the edition picker as one link a line) above the text is.
 * edges.ts removes what this marks, on posts only.
 */
import type { Line } from './lines.ts';
import { SENTENCE_END } from './metalines.ts';
import { ELEMENT, tagOf } from './walk.ts';

/** A menu entry: all link, at most this many words. */
const MENU_WORDS = 3;
/** Entries in a row that make a menu … */
const MENU_RUN = 3;
/** … or links on one line, each this short on average, mostly link text (an edition picker on one line). */
const LINE_LINKS = 3;
const LINE_LINK_WORDS = 2;
const LINE_LINK_SHARE = 0.7;

/** Words and ending of a sentence. */
const SENTENCE_WORDS = 4;

function sentence(text: string): boolean {
  return words(text) >= SENTENCE_WORDS && SENTENCE_END.test(text);
}

function words(text: string): number {
  return text ? text.split(' ').length : 0;
}

function menuEntry(line: Line): boolean {
  return line.linkChars === line.chars && words(line.text) <= MENU_WORDS;
}

/** A line of several short links: a menu or picker laid out on one line. */
function menuLine(line: Line): boolean {
  if (line.linkChars < line.chars * LINE_LINK_SHARE) return false;
  const links = new Set<Element>();
  for (const node of line.nodes) {
    for (let p = node.parentNode; p && p.nodeType === ELEMENT; p = p.parentNode) {
      if (tagOf(p as Element) === 'A') {
        links.add(p as Element);
        break;
      }
    }
  }
  return links.size >= LINE_LINKS && words(line.text) <= links.size * LINE_LINK_WORDS + 2;
}

/**
 * Indexes of the chrome lines among `lines` before `first` (the first line of the story's text):
 * all of them above `headline` (the headline heading's index, -1 when the content has none), and
 * menus anywhere above the text.
 */
export function openingChrome(lines: readonly Line[], first: number, headline: number): Set<number> {
  const out = new Set<number>();
  // (a sentence there is the post's own: a note or warning put above its title)
  for (let i = 0; i < headline; i++) if (!sentence(lines[i]!.text)) out.add(i);
  for (let i = 0; i < first; i++) {
    if (menuLine(lines[i]!)) out.add(i);
    if (!menuEntry(lines[i]!)) continue;
    let j = i;
    while (j < first && menuEntry(lines[j]!)) j++;
    if (j - i >= MENU_RUN) for (let k = i; k < j; k++) out.add(k);
    i = j - 1;
  }
  return out;
}
