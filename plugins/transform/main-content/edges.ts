/**
 * The lines around an article's body that are about it, not of it: the headline repeated above
 * the text, the dateline and byline, and below it the filing, credit, share and "previous / next
 * post" lines (see metalines.ts). Readers copying an article leave them out; the page's metadata
 * (author, published date) carries what they say. The headline stays when it is a heading (`<h1>`
 * …): it names what the content is about, and a reader (or a model reading one chunk) needs it.
 * The body is where the long lines are: only what lies before the first and after the last of
 * them is read, so the same words inside the text stay.
 */
import { openingChrome } from './chrome.ts';
import { linesOf, removeLine, type Line } from './lines.ts';
import { adLabel, metaLine, type TitleWords } from './metalines.ts';
import { cutFrom } from './cut.ts';
import { closingRows, openingRows } from './newsrows.ts';
import { HEADINGS } from './tags.ts';
import { ELEMENT, tagOf } from './walk.ts';

/** A line of the body: this long (visible characters) … */
const BODY_LINE = 100;
/** … and mostly outside links. */
const BODY_LINKS = 0.5;

/** Words up to which a link line above the body is a kicker (the section or category it is filed in). */
const KICKER_WORDS = 4;
/** … among the first lines of the content (further down, link lines before the text are a listing's). */
const KICKER_LINES = 3;

/** A short line that is all link, above the body: the section the post is filed in ("Gear", "Blog"), or a breadcrumb. */
function kicker(line: Line): boolean {
  return line.linkChars === line.chars && line.text.split(' ').length <= KICKER_WORDS;
}

/** What says a post is dated and signed: its dateline, byline or filing lines. */
const POST_SIGNS = new Set(['date', 'by', 'dated', 'filing']);
/** Date lines around the text from which they date a listing's items, not one post. */
const LISTING_DATES = 3;
/** Words up to which a heading above the story's headline is a label, not another headline. */
const LABEL_HEADING = 5;
/** Words from which a repeated headline is a story's ("Romney Tax Plan Would Increase GDP by 5.4%"), not a page's name ("GPS Watches"). */
const HEADLINE_WORDS = 6;

/**
 * Removes the meta lines above and below the body of `parts`; returns whether the content read as
 * a post. Off pages known as articles, only content that shows a post's dateline, byline or filing
 * lines around its body is trimmed: a docs page's or a listing's short lines are its own.
 */
export function trimEdges(parts: readonly Element[], titleWords: TitleWords, article: boolean): boolean {
  const lines: Array<{ line: Line; part: Element }> = [];
  for (const part of parts) for (const line of linesOf(part)) lines.push({ line, part });
  // (a long headline or a dateline with a long place name is as long as a paragraph: it is not the body)
  const body = (l: Line, above: boolean) =>
    l.chars >= BODY_LINE && l.linkChars < l.chars * BODY_LINKS && !metaLine(l.text, above ? titleWords : undefined);
  let first = 0;
  while (first < lines.length && !body(lines[first]!.line, true)) first++;
  let last = lines.length - 1;
  while (last > first && !body(lines[last]!.line, false)) last--;
  if (first >= lines.length) return article;
  const plain = lines.map((l) => l.line);
  // a list of other stories closing the content (see newsrows.ts)
  const rows = closingRows(plain, (l) => body(l, false), titleWords);
  // the site's chrome above the story's headline and its menus (see chrome.ts); the headline is the first
  // heading that says the title, under none but labels ("Breaking news", the site's name): a longer one is a headline too
  let headline = -1;
  for (let i = 0; i < first && headline < 0; i++) {
    const { line, part } = lines[i]!;
    if (!inHeading(line, part)) continue;
    if (metaLine(line.text, titleWords) === 'title') headline = i;
    else if (line.text.split(' ').length > LABEL_HEADING) break;
  }
  const chrome = openingChrome(plain, first, headline);
  for (const i of openingRows(plain, first, titleWords)) chrome.add(i);
  const meta: Array<{ line: Line; part: Element }> = [];
  let signs = false;
  let dates = 0;
  // (a kicker tops the content: a link line after a line of the text is the text's, a docs page's topic link)
  let textAbove = false;
  lines.forEach(({ line, part }, i) => {
    // (an advertisement's label between the story's paragraphs goes with the meta lines)
    if (i >= first && i <= last && adLabel(line.text)) meta.push({ line, part });
    if ((i >= first && i <= last) || !line.text) return;
    const why =
      metaLine(line.text, i < first ? titleWords : undefined) ??
      (i < KICKER_LINES && i < first && !textAbove && kicker(line) ? 'kicker' : null) ??
      (chrome.has(i) ? 'chrome' : null);
    if (!why) {
      if (i < first) textAbove = true;
      return;
    }
    // (the headline as a heading is the content's subject: a reader, and a model reading a chunk, needs it)
    // (a closing list goes whole, below)
    if ((why !== 'title' || !inHeading(line, part)) && (rows < 0 || i < rows)) meta.push({ line, part });
    if (POST_SIGNS.has(why) || (why === 'title' && line.text.split(' ').length >= HEADLINE_WORDS)) signs = true;
    if (why === 'date') dates++;
  });
  // (a post has a dateline; a run of dates is a listing's, one per item)
  const post = article || (signs && dates < LISTING_DATES);
  if (post && rows >= 0) cutFrom(lines[rows]!.line, parts);
  if (post) for (const { line, part } of meta) removeLine(line, part);
  return post;
}

/** Whether the line's text sits in a heading element inside `part`. */
function inHeading(line: Line, part: Element): boolean {
  for (let n: Node | null = line.nodes[0]?.parentNode ?? null; n && n !== part.parentNode; n = n.parentNode) {
    if (n.nodeType === ELEMENT && HEADINGS.has(tagOf(n as Element))) return true;
  }
  return false;
}
