/**
 * Visible datelines: the publication date printed on the page ("Published 5 March 2024",
 * "By Jane Doe | Mar 5, 2024 at 9:15") when no metadata or `<time datetime>` carries one. Read
 * from the elements themes mark as dates, else from a short element near the top of the page that
 * opens with "Published" or "Posted", or holds nothing but a date (a classic blog's date header).
 * English month names; an "Updated …" date is passed over.
 */
import { isDateOnly, tagOf } from '../../../core/kit.ts';
import type { DomDocument } from '../../../core/kit.ts';
import { visibleText } from './byline.ts';
import { hasClass, inBody, indexPage, topOfBody, type PageIndex } from './page-index.ts';
import { DIGIT_TEXT, LEAD_IN_TEXT, type TopOfBody } from './top-of-body.ts';
import { normaliseDate } from './dates.ts';

/** Classes themes give the publication date or the byline that carries it. */
const DATELINE_CLASSES = [
  'dateline',
  'published',
  'pubdate',
  'post-date',
  'entry-date',
  'article-date',
  'publish-date',
  'date-published',
  'posted-on',
  'byline',
];
/** Tried after the "Published …" lines: a bare `.date` or `<time>` is as often a comment's or an event's. */
const isLoose = (el: Element) => tagOf(el) === 'TIME' || hasClass(el, 'date');
const isDateline = (el: Element) => DATELINE_CLASSES.some((name) => hasClass(el, name));
const MAX_CANDIDATES = 20;
const MAX_TEXT = 300;
const UPDATE_WORDS = /(?:updated|modified|edited|revised)\W*(?:on\W*)?$/i;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const DATE_PATTERNS: ReadonlyArray<{ pattern: RegExp; parts: (m: RegExpExecArray) => [string, string, string] }> = [
  { pattern: new RegExp(String.raw`\b${MONTH}\s+${DAY},?\s+(\d{4})\b`, 'gi'), parts: (m) => [m[3]!, m[1]!, m[2]!] },
  { pattern: new RegExp(String.raw`\b${DAY}\s+(?:of\s+)?${MONTH},?\s+(\d{4})\b`, 'gi'), parts: (m) => [m[3]!, m[2]!, m[1]!] },
  { pattern: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g, parts: (m) => [m[1]!, m[2]!, m[3]!] },
];

function isoDate(year: string, month: string, day: string): string | null {
  const monthNumber = /^\d+$/.test(month) ? Number(month) : MONTHS.indexOf(month.slice(0, 3).toLowerCase()) + 1;
  return normaliseDate(`${year}-${String(monthNumber).padStart(2, '0')}-${day.padStart(2, '0')}`);
}

/** The first date written in `text` that is not introduced as an update, as `YYYY-MM-DD`. */
export function dateInText(text: string): string | null {
  const found: Array<{ index: number; date: string }> = [];
  for (const { pattern, parts } of DATE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      if (UPDATE_WORDS.test(text.slice(Math.max(0, match.index - 25), match.index))) continue;
      const date = isoDate(...parts(match as RegExpExecArray));
      if (date) found.push({ index: match.index, date });
    }
  }
  found.sort((a, b) => a.index - b.index);
  return found[0]?.date ?? null;
}

const dateOf = (el: Element) => dateInText(visibleText(el, MAX_TEXT).slice(0, MAX_TEXT));

/** The first dated element of a kind in the body, in document order (from the page index's marked elements). */
function fromMarked(body: Element, marked: readonly Element[], kind: (el: Element) => boolean): string | null {
  for (const el of marked.filter((el) => kind(el) && inBody(el, body)).slice(0, MAX_CANDIDATES)) {
    const date = dateOf(el);
    if (date) return date;
  }
  return null;
}

/** An element near the top whose text opens with "Published" / "Posted" / "Date". */
function fromLeadIns({ elements, flags }: TopOfBody): string | null {
  for (let i = 0; i < elements.length; i++) {
    if (!(flags[i]! & LEAD_IN_TEXT)) continue;
    const date = dateOf(elements[i]!);
    if (date) return date;
  }
  return null;
}

/** Longest date-only line read (characters). */
const MAX_DATE_LINE = 60;

/** A short element near the top whose whole text is a date (Blogger's and Movable Type's date headers). */
function fromDateOnlyLines({ elements, flags }: TopOfBody): string | null {
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    // (only elements with digits of their own, and small: their text is read whole, and a date header is one)
    if (!(flags[i]! & DIGIT_TEXT) || el.childElementCount > 3) continue;
    // (bounded: a wrapper with one child can hold the whole page)
    const text = visibleText(el, MAX_DATE_LINE + 1)
      .replace(/\s+/g, ' ')
      .trim();
    if (!text || text.length > MAX_DATE_LINE || !isDateOnly(text)) continue;
    const date = dateInText(text);
    if (date) return date;
  }
  return null;
}

export function readDateline(dom: DomDocument, index: PageIndex = indexPage(dom)): string | null {
  const body = dom.body;
  if (!body) return null;
  return (
    fromMarked(body, index.marked, isDateline) ??
    fromLeadIns(topOfBody(index, body)) ??
    fromDateOnlyLines(topOfBody(index, body)) ??
    fromMarked(body, index.marked, isLoose)
  );
}
