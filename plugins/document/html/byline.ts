/**
 * Visible bylines: the author name printed on the page when no metadata names one. Tried from
 * the most specific marker (`<a rel="author">`) to the loosest (`.author`, which can also be a
 * bio box: those fail the name check and the next candidate is tried), then a short line near the
 * top that names the writer after "By", as classic pages print it without any class.
 */
import { isDateOnly, tagOf } from '../../../core/kit.ts';
import type { DomDocument } from '../../../core/kit.ts';
import { cleanPersonName } from './people.ts';
import { hasClass, inBody, indexPage, tokens, topOfBody, type PageIndex } from './page-index.ts';
import { BY_TEXT, type TopOfBody } from './top-of-body.ts';

/**
 * Where bylines are, most specific first: `a[rel~=author]`, `.byline .author`, `.byline-name`,
 * `.author-name`, `.byline`, `.author`, tested on the page index's marked elements.
 */
const BYLINE_MARKS: ReadonlyArray<(el: Element) => boolean> = [
  (el) => tagOf(el) === 'A' && tokens(el, 'rel').some((rel) => rel.toLowerCase() === 'author'),
  (el) => hasClass(el, 'author') && hasAncestorClass(el, 'byline'),
  (el) => hasClass(el, 'byline-name'),
  (el) => hasClass(el, 'author-name'),
  (el) => hasClass(el, 'byline'),
  (el) => hasClass(el, 'author'),
];

function hasAncestorClass(el: Element, name: string): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) if (hasClass(p, name)) return true;
  return false;
}
/** Enough to pass over a few bio boxes without scanning every comment on a long thread. */
const MAX_CANDIDATES = 20;
const MAX_BYLINE_CHARS = 300;

/**
 * Text with a ` | ` where two elements touch without whitespace: `<span>Lucas Nolan</span><span>22 Dec</span>`
 * renders as two separate pieces, and textContent would glue them into "Lucas Nolan22 Dec".
 */
export function visibleText(el: Element, maxChars = Infinity): string {
  let text = '';
  // The cap stops the walk early: a candidate may be a container holding a whole article. The walk
  // goes by firstChild / nextSibling, so a wrapper with thousands of children costs only what is read.
  let node: Node | null = el.firstChild;
  while (node && text.length < maxChars) {
    if (node.nodeType === 3) {
      const piece = node.nodeValue ?? '';
      if (piece) text += text && /\S$/.test(text) && /^\S/.test(piece) ? ` | ${piece}` : piece;
    } else if (node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== el && !node.nextSibling) node = node.parentNode;
    if (!node || node === el) break;
    node = node.nextSibling;
  }
  return text;
}

/** "By Jane Doe", "Posted by Jane Doe", and after a date: "October 25th, 2012 by Jane Doe". */
const BY_LINE =
  /(?:^|[\s,|•·—–-])(?:by|By|BY)\s*:?\s+([\p{Lu}][\p{L}'’.-]*(?:\s+(?:[\p{Lu}][\p{L}'’.-]*|van|von|de|der|den|da|di|du|la|le|bin|al)){0,4})/u;
/** Longest line read as a byline (characters), and how far into the page it is looked for. */
const MAX_BY_LINE = 120;
/** What may stand before "by" in a byline: nothing, a verb of writing, or the date ("October 25th, 2012 by …"). */
const WRITER_VERB =
  /^(?:(?:originally\s+)?(?:posted|written|published|story|words|article|reported|text|report|column|interview|compiled)(?:\s+on\s+.*)?)$/i;

function writerLead(before: string): boolean {
  const lead = before.replace(/[\s,|•·—–:-]+$/, '').trim();
  return lead === '' || WRITER_VERB.test(lead) || isDateOnly(lead);
}

/** Month and weekday names and job titles that follow a name in a byline ("Jane Doe February 22", "Rodney Roe Dean"). */
const AFTER_NAME =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon|tue|wed|thu|fri|sat|sun)[a-z]*$|^(?:staff|editor|reporter|correspondent|writer|contributor|dean|professor|director|president|chairman|columnist|content|senior|chief|manager|team|reviewed|edited|updated|published|posted|archive|view|comments?|this)$/i;
/** What a "by" sorts or filters on in a shop's or a directory's controls ("Shop by Price", "By Category"). */
const FACET =
  /^(?:price|category|categories|product|products|domain|company|size|type|brand|color|colour|date|topic|industry|location|region|tag|name|role|department|subject|year|month|popularity|relevance|rating|newest|oldest|collection|occasion|style|material|gender|age)$/i;

/** The name in the words after "by": up to the first word that ends a sentence or starts a date or title; two words at least. */
function nameOf(words: string): string | null {
  if (FACET.test(words.split(/\s+/)[0]!)) return null;
  const out: string[] = [];
  for (const w of words.split(/\s+/)) {
    if (AFTER_NAME.test(w.replace(/[.,]$/, ''))) break;
    out.push(w);
    // (an initial "B." goes on; "Sterling." ends the sentence)
    if (w.endsWith('.') && w.length > 2) break;
  }
  const name = out.join(' ').replace(/\.$/, '');
  return name.split(' ').length >= 2 ? cleanPersonName(name) : null;
}

/** Elements whose text children are not text a reader sees. */
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA']);

/** Inline elements whose line is their parent's: "<p><b>By</b> Jane Roe</p>". */
const INLINE = new Set(['B', 'STRONG', 'EM', 'I', 'SPAN', 'FONT', 'SMALL', 'A']);

/** A short element near the top whose own line names the writer after "By" (a classic page's byline, no class). */
function fromByLines({ elements, flags }: TopOfBody): string | null {
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    // (only elements whose own text says "by" are read: as the line they make, or with their parent's
    // when they are a bare "By" in bold)
    // (a script's or a style's text is code: a large inline bundle would be searched for nothing)
    if (NOT_TEXT.has(tagOf(el)) || !(flags[i]! & BY_TEXT)) continue;
    for (const line of INLINE.has(tagOf(el)) && el.parentElement ? [el, el.parentElement] : [el]) {
      const text = visibleText(line, MAX_BY_LINE + 1)
        .replace(/\s+/g, ' ')
        .trim();
      if (text.length > MAX_BY_LINE) break;
      const match = BY_LINE.exec(text);
      if (!match) continue;
      if (!writerLead(text.slice(0, match.index + match[0].search(/by/i)))) break;
      // (the first byline is the post's: later ones sign the comments under it)
      return nameOf(match[1]!);
    }
  }
  return null;
}

export function readByline(dom: DomDocument, index: PageIndex = indexPage(dom)): string | null {
  const body = dom.body;
  if (!body) return null;
  return fromMarked(body, index) ?? fromByLines(topOfBody(index, body));
}

function fromMarked(body: Element, index: PageIndex): string | null {
  const found = index.marked.filter((el) => inBody(el, body) && BYLINE_MARKS.some((mark) => mark(el)));
  for (const mark of BYLINE_MARKS) {
    const candidates = found.filter(mark).slice(0, MAX_CANDIDATES);
    for (const el of candidates) {
      // Past a few hundred characters it is a bio or an article, never a name: no need to read on.
      const name = cleanPersonName(visibleText(el, MAX_BYLINE_CHARS));
      if (name) return name;
    }
  }
  return null;
}
