/**
 * Parsing an HTML page into the DOM and content root the transforms start from, once. linkedom
 * is not the standard's parser: on some pages (markup or a script before `<html>`/`<head>`) it
 * leaves `document.body` empty and puts the real page in later siblings, or nests the body inside
 * another element. Those pages get one more parse here, of just their `<body>…</body>` markup with
 * scripts and styles cut, and its body becomes the content root; the first parse stays the page
 * (`doc.dom`: head, metadata, every link). Every parse is settled (settle.ts) and held to the
 * depth limit (limits.ts); the caller has already cut the markup to the element limit.
 */
import { parseHtmlDocument, visibleLength } from '../../../core/dom.ts';
import { settleParsedPage } from './settle.ts';
import { flattenDeeperThan } from './limits.ts';

export interface ParsedPage {
  /** The page as parsed: what metadata, links and raw HTML read. */
  dom: Document;
  /** Where the content is: the body, or the body of the re-parse when linkedom misplaced it. */
  root: Element;
  /** Subtrees below the depth limit that were replaced by their text. */
  flattened: number;
}

/**
 * `html` is the markup to parse; or a DOM a source already built (the video page), whose markup
 * is not the response's, so it is never parsed again.
 */
export function parsePage(html: string | Document, maxDepth = Infinity): ParsedPage {
  const dom = typeof html === 'string' ? parseHtmlDocument(html) : html;
  const flattened = typeof html === 'string' ? flattenDeeperThan(dom, maxDepth) : 0;
  settleParsedPage(dom);
  if (!isBrokenParse(dom)) return { dom, root: dom.body, flattened };
  const again = typeof html === 'string' ? reparseBody(html, maxDepth) : null;
  if (again && !isBrokenParse(again)) return { dom, root: again.body, flattened };
  // no better parse: search the whole element that holds the text (heads are skipped by every pass)
  return { dom, root: textRoot(dom) ?? dom.body, flattened };
}

/** Does the parsed page have its body somewhere a browser would not put it, or no visible text? */
export function isBrokenParse(doc: Document): boolean {
  const body = doc.body;
  const html = doc.documentElement;
  if (!body || !html || html.tagName !== 'HTML' || body.tagName !== 'BODY' || body.parentNode !== html) return true;
  return textRoot(doc) !== body;
}

/** Re-parses only the body markup of `html`, without scripts and styles, settled. */
function reparseBody(html: string, maxDepth: number): Document {
  const lower = html.toLowerCase();
  const open = lower.indexOf('<body');
  const close = lower.lastIndexOf('</body');
  let body = open >= 0 ? html.slice(open, close > open ? close : html.length) : html;
  body = body.replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, '');
  if (open >= 0) body = body.replace(/^<body[^>]*>/i, '');
  const doc = parseHtmlDocument(`<!doctype html><html><head></head><body>${body}</body></html>`);
  flattenDeeperThan(doc, maxDepth);
  settleParsedPage(doc);
  return doc;
}

/** The body when it has visible text, else `<html>` when that has, else whichever exists. */
function textRoot(doc: Document): Element | null {
  const body = doc.body;
  const html = doc.documentElement;
  if (body && hasText(body)) return body;
  if (html && hasText(html)) return html;
  return body ?? html ?? null;
}

function hasText(el: Element): boolean {
  // cheap check: any visible text in the first few thousand characters of the subtree
  for (let n: Node | null = el.firstChild; n; ) {
    if (n.nodeType === 3 && visibleLength(n.nodeValue ?? '') > 0 && n.parentNode && (n.parentNode as Element).tagName?.toUpperCase() !== 'SCRIPT') return true;
    if (n.nodeType === 1 && n.firstChild && (n as Element).tagName.toUpperCase() !== 'HEAD') n = n.firstChild;
    else {
      while (n && !n.nextSibling && n !== el) n = n.parentNode;
      if (!n || n === el) break;
      n = n.nextSibling;
    }
  }
  return false;
}
