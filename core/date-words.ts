/**
 * Lines that are nothing but a date, as pages print them above or below a post: "Thursday,
 * October 25, 2012 at 9:15AM", "PUBLISHED: 5 March 2024 | 10:00 GMT", "2012-11-08". Read word by
 * word (never one regex with nested repeats: a page's text must not make it backtrack). Shared by
 * the HTML document plugin (a dateline for the metadata) and main content (a dateline to leave out).
 */

const MONTH =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$/;
const WEEKDAY = /^(?:mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|d|t)?$/;
/** Words a dateline carries beside the date itself. */
const FILLER = new Set([
  'at',
  'on',
  'of',
  'the',
  'am',
  'pm',
  'a.m',
  'p.m',
  'gmt',
  'utc',
  'est',
  'edt',
  'cst',
  'cdt',
  'mst',
  'mdt',
  'pst',
  'pdt',
  'bst',
  'cet',
  'cest',
  'ist',
  'et',
  'pt',
  'published',
  'posted',
  'date',
  'dated',
  'updated',
  'last',
  'modified',
  'first',
  'on:',
]);
/** A number, an ordinal day, a clock time (9:15, 9:15am). */
const NUMERIC = /^(?:\d{1,4}(?:st|nd|rd|th)?|\d{1,2}:\d{2}(?::\d{2})?(?:[ap]\.?m\.?)?)$/;
/** A numeric date with a four-digit year (2012-11-08, 09/18/2012, 11.05.2012). */
const NUMERIC_DATE = /^(?:\d{4}[/.-]\d{1,2}[/.-]\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{4})$/;
const SEPARATORS = /[\s,|•·—–()]+/;
/** Longest line read (characters). */
const MAX_LINE = 120;

/** Is `text` a date and nothing else (weekday, time, zone and a "Published" label allowed)? Needs a month name or a numeric date. */
export function isDateOnly(text: string): boolean {
  if (text.length > MAX_LINE) return false;
  let month = false;
  let numericDate = false;
  let words = 0;
  for (const raw of text.toLowerCase().split(SEPARATORS)) {
    // (a lone "-" or "/" between the date and the time, a trailing comma or colon)
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.]+$|\.$/gu, '');
    if (!word) continue;
    words++;
    if (MONTH.test(word)) month = true;
    else if (NUMERIC_DATE.test(word)) numericDate = true;
    else if (!NUMERIC.test(word) && !WEEKDAY.test(word) && !FILLER.has(word)) return false;
  }
  // (a month name needs a number beside it: "May" alone is a word)
  return (month && words >= 2) || numericDate;
}
