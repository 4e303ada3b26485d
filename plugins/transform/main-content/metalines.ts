/**
 * Lines about a post rather than of it, by their wording: datelines ("Thursday, October 25, 2012
 * at 9:15AM", "PUBLISHED: 5 March 2024 | UPDATED: …"), bylines ("By Jane Doe", "Posted by X in
 * News"), filing lines ("Tags: …", "Filed under …", "Labels: …"), credits ("Photo credit: …",
 * "Image courtesy of …", "Source: …"), share and print widgets' labels, previous/next links
 * ("« Older post | Main | Newer post »"), copyright lines, and the headline repeated above the body.
 * edges.ts reads them only around the body: the same words inside the text are the text.
 */
import { isDateOnly } from '../../../core/kit.ts';

const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/** A date or a time written out somewhere in the line. */
const DATE = new RegExp(
  String.raw`\b${MONTH}\s*\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{1,2}:\d{2}\b|\b\d+\s*(?:m|h|d|w|mins?|hrs?|minutes?|hours?|days?|weeks?|months?|years?)\s+ago\b`,
  'i',
);
/** How a post's filing lines begin: who posted it when, and under what ("Posted in News", "Tags: …"). */
const FILING = new RegExp(
  `${[
    String.raw`(?:originally\s+)?(?:posted|published|written|filed|tagged|submitted|updated|last\s+updated|reported|article)\s+(?:by|on|in|at|under|to|with)\b`,
    String.raw`filed\s+under|posted\s+in\b|permalink\b|cross-posted\b|this\s+(?:entry|post)\s+was\s+(?:posted|written|filed)`,
    String.raw`(?:categor(?:y|ies)|tags?|tagged|labels?|topics?|keywords|related\s+topics?)\s*:`,
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '^(?:')})`,
  'i',
);
/** How credit and widget lines begin. */
const LEAD = new RegExp(
  `${[
    String.raw`(?:photo|image|picture|thumbnail(?:\s+image)?|video|top\s+image|header\s+image)\s*(?:credits?|courtesy|source|via)?\s*:`,
    String.raw`(?:photo|image)\s+(?:credit|courtesy)|credits?\s*:|source\s*:|via\s*:|h\/t\b`,
    String.raw`share\s+(?:this|on)\b|like\s+this\s*:|follow\s+(?:us|me)\b|subscribe\s+to\b|jump\s+to\s+comments|(?:print|email)\s+this`,
    String.raw`comments?\s+may\b|(?:adjust\s+)?text\s+size\b|about\s+the\s+author\b|author\s*:|advertisement\b|loading\s*\.\.\.`,
    // a news page's reading-time and audio-player labels ("8 min read", "Reading time: 7 minutes", "Listen to this article")
    String.raw`[|•·\s]*(?:estimated\s+)?read(?:ing)?\s+time\s*[:\d]|[|•·\s]*\d+\s*(?:min(?:ute)?s?|m)\.?\s+read\W*$|listen\s+to\s+(?:this|the)\s+(?:article|story)\b`,
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, '^(?:')})`,
  'i',
);
/** Filing lines that list terms, which may run long. */
const TERMS = /^(?:categor(?:y|ies)|tags?|tagged|labels?|topics?|keywords|filed\s+under|posted\s+in)\b/i;
/** A widget's whole label: share buttons, print, navigation words, and a news site's account links, edition picker and flags. */
const UTILITY =
  /^(?:share(?: this)?|print|e-?mail|tweet|pin it|like|save|comments?|reply|permalink|rss|twitter|facebook|google\s?\+|linkedin|stumbleupon|reddit|digg|tumblr|pinterest|instapaper|delicious|more|read more|advertisement|loading|search|home|main|top|back to top|next|previous|prev|older|newer|clear|link|sharing is caring|log ?in|log ?out|sign ?in|sign ?up|sign ?out|register|subscribe|my account|menu|close|skip to(?: main)? content|breaking(?: news)?|just in|live(?: updates)?|(?:[\w.]+ )?edition(?::? [\w.]+)?)$/i;
/** An advertisement's label, which news pages set between the paragraphs of a story ("Advertisement", "Story continues below"). */
const AD_LABEL =
  /^(?:advertisement|advertising|sponsored|ad)(?:\s*[-–—:|]?\s*(?:the\s+)?(?:page|story|article|text)\s+continues\s+below)?$|^(?:the\s+)?(?:story|article|text)\s+continues\s+below(?:\s+(?:this\s+)?(?:advertisement|ad))?$|^(?:continue\s+reading\s+below|scroll\s+(?:down\s+)?to\s+continue(?:\s+(?:with|reading)\s+(?:the\s+)?(?:content|article|story))?)$/i;

/** Is the line an advertisement's label, read anywhere in a post (never a sentence of its text)? */
export function adLabel(line: string): boolean {
  const s = line
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s:!.…|]+$/, '');
  return s.length <= 60 && AD_LABEL.test(s);
}

/** Previous / next links between posts. */
const NAV = /«|»|‹|›|<<|>>|^<\s|\s>$|\b(?:previous|next|older|newer)\s+(?:post|article|entry|story)\b/i;
/** "By Jane Doe": a name follows (not "By the way, …"). */
const BY = /^(?:[Bb]y|BY|(?:[Ww]ritten|[Pp]osted|[Ss]tory|[Ww]ords|[Rr]eported|[Aa]rticle)\s+[Bb]y)\s*:?\s+(?:the\s+)?[\p{Lu}@]/u;
const COPYRIGHT = /^©|\bcopyright\s*©?\s*\d{4}|all rights reserved/i;
/** Ends like a sentence. */
export const SENTENCE_END = /[.!?]["”’')]?$/;

/** Longest line read as meta (visible characters); a filing line lists terms and may run longer. */
const MAX_META = 200;
const MAX_FILING = 500;
/** A byline or dated line has at most this many words. */
const MAX_BY_WORDS = 14;
const MAX_DATED_WORDS = 12;
/** A line repeats the headline when this share of its words is in the title … */
const TITLE_SHARE = 0.8;
/** … and it holds this share of the title's words at least (not a one-word subheading that happens to be in it). */
const TITLE_COVER = 0.25;

export function wordsOf(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The headline's words as the page names it (every variant: `<title>` with the site's name, og:title), and the count of the shortest. */
export interface TitleWords {
  words: ReadonlySet<string>;
  size: number;
}

export function titleWords(...titles: string[]): TitleWords {
  const words = new Set<string>();
  let size = Infinity;
  for (const t of titles) {
    const w = wordsOf(t);
    if (!w.length) continue;
    for (const x of w) words.add(x);
    size = Math.min(size, w.length);
  }
  return { words, size: Number.isFinite(size) ? size : 0 };
}

/** Does the line write out a date or a clock time somewhere ("March 5, 2019", "09:42", "2 hours ago")? */
export function hasDate(line: string): boolean {
  return DATE.test(line);
}

/** Why a line around the body is about the post (a short label for diagnostics), or null. `title` only for lines above the body. */
export function metaLine(line: string, title?: TitleWords): string | null {
  const s = line.replace(/\s+/g, ' ').trim();
  if (!s || s.length > MAX_FILING) return null;
  if (FILING.test(s) && (s.length <= MAX_META || TERMS.test(s))) return 'filing';
  if (s.length > MAX_META) return null;
  if (LEAD.test(s)) return 'lead';
  const w = wordsOf(s);
  if (isDateOnly(s)) return 'date';
  if (BY.test(s) && w.length <= MAX_BY_WORDS && !SENTENCE_END.test(s)) return 'by';
  if (s.length <= 30 && UTILITY.test(s.replace(/[\s:!.…|]+$/, ''))) return 'utility';
  if (NAV.test(s) && !SENTENCE_END.test(s)) return 'nav';
  if (COPYRIGHT.test(s)) return 'copyright';
  if (DATE.test(s) && w.length <= MAX_DATED_WORDS && /[|•·]|\bby\b|\bposted\b/i.test(s) && !SENTENCE_END.test(s)) return 'dated';
  if (title?.size && w.length) {
    let inTitle = 0;
    for (const x of w) if (title.words.has(x)) inTitle++;
    if (inTitle >= TITLE_SHARE * w.length && w.length >= TITLE_COVER * title.size) return 'title';
  }
  return null;
}
