/**
 * Parsing for extraction: core/dom.ts's linkedom parse, checked for linkedom's structural quirks.
 * On some pages (markup or a script before `<html>`/`<head>`) linkedom leaves `document.body`
 * empty or nests it inside another element; those pages are parsed again from just their
 * `<body>…</body>` markup, with scripts and styles cut out first. Every parse is settled as the
 * HTML document plugin settles its own (settle.ts).
 */
import { parseHtmlDocument } from '../../../core/dom.ts';
import { settleParsedPage } from '../../document/html/settle.ts';
import { searchRoot } from './root.ts';

/** Does the parsed page have its body somewhere a browser would not put it, or no visible text? */
export function isBrokenParse(doc: Document): boolean {
  const body = doc.body;
  const html = doc.documentElement;
  if (!body || !html || html.tagName !== 'HTML' || body.tagName !== 'BODY' || body.parentNode !== html) return true;
  return searchRoot(doc) !== body;
}

/** Re-parses only the body markup of `html`, without scripts and styles. */
export function reparseBody(html: string): Document {
  const lower = html.toLowerCase();
  const open = lower.indexOf('<body');
  const close = lower.lastIndexOf('</body');
  let body = open >= 0 ? html.slice(open, close > open ? close : html.length) : html;
  body = body.replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '');
  if (open >= 0) body = body.replace(/^<body[^>]*>/i, '');
  return settledParse(`<!doctype html><html><head></head><body>${body}</body></html>`);
}

/** A parse settled as the HTML document plugin settles its own (streamed parts placed, mojibake repaired). */
function settledParse(html: string): Document {
  const doc = parseHtmlDocument(html);
  settleParsedPage(doc);
  return doc;
}

/** Parses a page for extraction, falling back to a body-only re-parse when linkedom's result is broken. */
export function parseForExtraction(html: string): Document {
  const doc = settledParse(html);
  if (!isBrokenParse(doc)) return doc;
  const again = reparseBody(html);
  return isBrokenParse(again) ? doc : again;
}
