/**
 * Lists of other stories after a story, read from its lines: news sites close an article with
 * "Trending", "More from …" or "Latest" lists, and a breaking-news page follows its few paragraphs
 * with dozens of timestamped headlines. Each row of such a list is a headline link with at most
 * its dateline, byline or section label, and now and then a one-line blurb. A run of such rows
 * that reaches the end of the content, after the story's own paragraphs, is the site's, not the
 * story's, when its rows are dated or signed (other stories) or a label says what it is: it goes
 * whatever its share of the content (a breaking story is shorter than its list). Undated links
 * under no such label are as often the post's own list (the books a review names, the products a
 * picture shows), and so are its sources and references, dated or not; a list with the text going
 * on after it is the story's. The same rows between the headline and the text (a "Latest" box at
 * the top of the column) are the site's too.
 */
import type { Line } from './lines.ts';
import { hasDate, metaLine, SENTENCE_END, type TitleWords } from './metalines.ts';
import { isReadNextHeading } from './tail.ts';
import { ELEMENT, tagOf, visibleLength } from './walk.ts';

/** A headline: this many words at least, at most this long, and mostly link text. */
const HEADLINE_WORDS = 4;
const HEADLINE_CHARS = 200;
const HEADLINE_LINKS = 0.6;
/** A row's label or count: at most this many words and characters, and not a sentence. */
const LABEL_WORDS = 6;
const LABEL_CHARS = 60;
/** A teaser's blurb: one line of at most this many characters under its headline. */
const BLURB_CHARS = 320;
/** Rows a list needs. */
const MIN_ROWS = 3;
/** Story text (visible characters of body lines) that must come before the list. */
const STORY_MIN = 200;

/**
 * How news sites title their lists of other stories ("Trending in World", "More from …", "Latest",
 * "Business news"), beside the "read next" wordings (tail.ts).
 */
const LIST_LABEL =
  /^(?:trending|latest|popular|recommended|related|more|also|top|most|editor['’]?s['’]?|must|in case you missed|you may|don['’]t miss|what['’]?s|in other news|news ?feed|(?:sponsored|promoted|partner) (?:stories|content|links|posts))\b|^(?:[\w'’&]+ ){0,3}(?:news|headlines|stories)\W*$/i;

type Kind = 'headline' | 'label' | 'blurb' | 'text';

function kindOf(line: Line): Kind {
  const words = line.text.split(' ').length;
  if (line.linkChars >= line.chars * HEADLINE_LINKS && words >= HEADLINE_WORDS && line.chars <= HEADLINE_CHARS) return 'headline';
  if (metaLine(line.text) || (words <= LABEL_WORDS && line.chars <= LABEL_CHARS && !SENTENCE_END.test(line.text))) return 'label';
  return line.chars <= BLURB_CHARS && line.linkChars < line.chars * HEADLINE_LINKS ? 'blurb' : 'text';
}

/**
 * Where the list of other stories that closes `lines` begins (its label and rows, to the end), or
 * -1. `body` tells the story's paragraphs: enough of them must come before the list, not under
 * another story's headline link (`title`: the page's headline words).
 */
export function closingRows(lines: readonly Line[], body: (line: Line) => boolean, title: TitleWords): number {
  let rows = 0;
  let start = -1;
  // (read from the end: a blurb follows its headline, so one is pending until the headline shows)
  let blurb = false;
  let blurbs = 0;
  // the kinds of the last two lines that are not labels, and whether labels sit between them
  let last: Kind | null = null;
  let before: Kind | null = null;
  let apart = false;
  let i = lines.length - 1;
  for (; i >= 0; i--) {
    const kind = kindOf(lines[i]!);
    if (kind === 'label') {
      if (last && !before) apart = true;
      continue;
    }
    if (last) before ??= kind;
    last ??= kind;
    if (kind === 'headline') {
      rows++;
      start = i;
      if (blurb) blurbs++;
      blurb = false;
      continue;
    }
    if (kind === 'blurb' && !blurb) {
      blurb = true;
      continue;
    }
    break;
  }
  if (rows < MIN_ROWS || start < 0) return -1;
  // (a paragraph right after the last of rows that mostly have none is the text going on after a list of
  // its own; under a title of its own, it is a box after the list: a video's, a newsletter's)
  if (last === 'blurb' && before === 'headline' && !apart && blurbs * 2 < rows) return -1;
  start = labelAbove(lines, start);
  if (!otherStories(lines, start, lines.length, rows)) return -1;
  // (a run that begins inside a list is that list's tail: references, whose last entries look like rows)
  if (midList(lines[start]!)) return -1;
  let story = 0;
  let opened = -1;
  for (let k = 0; k < start; k++) {
    if (!body(lines[k]!)) continue;
    story += lines[k]!.chars;
    if (opened < 0) opened = k;
  }
  return story >= STORY_MIN && !opensWithHeadline(lines, opened, title) ? start : -1;
}

/**
 * The lines of lists of other stories before `first` (the story's first paragraph), between the
 * headline and the text or above them: a "Latest" or "Most viewed" box set at the top of the story's
 * column. The page's own headline is never one of their rows.
 */
export function openingRows(lines: readonly Line[], first: number, title: TitleWords): number[] {
  const out: number[] = [];
  const row = (k: number) => metaLine(lines[k]!.text, title) !== 'title';
  for (let i = 0; i < first; i++) {
    if (kindOf(lines[i]!) !== 'headline' || !row(i)) continue;
    let rows = 0;
    let blurb = false;
    let j = i;
    for (; j < first && row(j); j++) {
      const kind = kindOf(lines[j]!);
      if (kind === 'headline') {
        rows++;
        blurb = false;
      } else if (kind === 'blurb' && !blurb) blurb = true;
      else if (kind !== 'label') break;
    }
    const start = labelAbove(lines, i);
    if (rows >= MIN_ROWS && otherStories(lines, start, j, rows)) for (let k = start; k < j; k++) out.push(k);
    i = j;
  }
  return out;
}

/** The run's start moved up over the list's label ("Trending", "More from …") and the first row's dateline. */
function labelAbove(lines: readonly Line[], start: number): number {
  while (start > 0 && kindOf(lines[start - 1]!) === 'label' && (listLabel(lines[start - 1]!.text) || metaLine(lines[start - 1]!.text)))
    start--;
  return start;
}

/** Titles of a post's own lists of links: its sources, references and documents, dated as they may be. */
const OWN_LIST =
  /^(?:sources?|references?|further reading|(?:foot)?notes|bibliography|works cited|citations?|resources|(?:external |useful )?links|downloads?|documents?|attachments?|see also|timeline)\W*$/i;

/** Are the lines `from`…`to` (holding `rows` headlines) other stories: rows dated or signed, or a label saying so? */
function otherStories(lines: readonly Line[], from: number, to: number, rows: number): boolean {
  // (the line above a list titles it)
  if (from > 0 && OWN_LIST.test(lines[from - 1]!.text)) return false;
  let signs = 0;
  for (let k = from; k < to; k++) {
    const text = lines[k]!.text;
    if (OWN_LIST.test(text)) return false;
    if (listLabel(text)) return true;
    const why = metaLine(text);
    if (why === 'date' || why === 'by' || why === 'dated' || (text.length <= HEADLINE_CHARS && hasDate(text))) signs++;
  }
  return signs >= Math.max(MIN_ROWS, rows / 2);
}

function listLabel(text: string): boolean {
  return text.length <= LABEL_CHARS && (LIST_LABEL.test(text) || isReadNextHeading(text));
}

/**
 * Does the story's text (from line `at`) open under a headline link other than the page's own?
 * Then it is the first item of a listing shown in full, and the rows after it are the listing's.
 */
function opensWithHeadline(lines: readonly Line[], at: number, title: TitleWords): boolean {
  for (let k = at - 1; k >= 0; k--) {
    const kind = kindOf(lines[k]!);
    if (kind === 'label') continue;
    return kind === 'headline' && metaLine(lines[k]!.text, title) !== 'title';
  }
  return false;
}

/** Items a list is made of. */
const ITEMS = new Set(['LI', 'TR', 'DD', 'DT']);

/** Does the line sit in an item of a list after another item with text? */
function midList(line: Line): boolean {
  for (let n = line.nodes[0]?.parentNode ?? null; n && n.nodeType === ELEMENT; n = n.parentNode) {
    if (!ITEMS.has(tagOf(n as Element))) continue;
    for (let s = (n as Element).previousElementSibling; s; s = s.previousElementSibling)
      if (visibleLength(s.textContent ?? '') > 0) return true;
    return false;
  }
  return false;
}
