/**
 * React streaming SSR (Next.js app router, Remix, any `renderToPipeableStream` page): parts that
 * were not ready when the page shell was sent arrive later, at the end of the body, inside
 * `<div hidden id="S:n">`, with an inline script that moves them into place. The shell holds a
 * placeholder for each: `<template id="P:n">` for a segment, or `<!--$?--><template id="B:n">`
 * followed by a fallback ("Loading…", a spinner, a skeleton) up to `<!--/$-->` for a Suspense
 * boundary. Without a browser the content stays hidden and the fallback shows, so an article can
 * come out as "Loading paragraph…". `placeStreamedContent` does what those scripts do.
 */
import { attr, ELEMENT, tagOf } from '../../../core/kit.ts';

const COMMENT = 8;
/** What a fallback says when it says anything: "Loading…", "Loading paragraph...", "Please wait". */
const LOADING = /^(?:loading\b|please wait)|(?:\.\.\.|…)$/i;

/** Moves streamed segments (hidden `S:` divs, direct children of body or html) into their placeholders. */
export function placeStreamedContent(doc: Document): void {
  const segments = new Map<string, Element>();
  // streamed parts are written after the shell, so they are top-level: no deep walk needed
  for (const top of [doc.body, doc.documentElement]) {
    for (let c = top?.firstElementChild ?? null; c; c = c.nextElementSibling) {
      const id = attr(c, 'id');
      if (id?.startsWith('S:') && tagOf(c) === 'DIV' && attr(c, 'hidden') !== null) segments.set(id.slice(2), c);
    }
  }
  if (!segments.size) return;
  // segment and boundary numbers match in the completion calls ($RC("B:1","S:1"), $RS("S:f","P:f"))
  const placeholders = new Map<string, Element>();
  for (const t of doc.querySelectorAll('template')) {
    const id = attr(t, 'id');
    if (id && (id.startsWith('B:') || id.startsWith('P:'))) placeholders.set(id, t);
  }
  for (const [n, seg] of segments) {
    const spot = placeholders.get(`P:${n}`) ?? placeholders.get(`B:${n}`);
    if (!spot?.parentNode) continue;
    if (attr(spot, 'id')!.startsWith('B:')) dropFallback(spot);
    const parent = spot.parentNode;
    while (seg.firstChild) parent.insertBefore(seg.firstChild, spot);
    parent.removeChild(spot);
    seg.parentNode?.removeChild(seg);
  }
}

/** Removes a boundary's fallback: what follows its template up to the boundary's closing `<!--/$-->`. */
function dropFallback(template: Element): void {
  const open = template.previousSibling;
  if (open?.nodeType === COMMENT && (open.nodeValue ?? '').startsWith('$')) {
    let depth = 0;
    let end: Node | null = template.nextSibling;
    for (; end; end = end.nextSibling) {
      if (end.nodeType !== COMMENT) continue;
      const v = end.nodeValue ?? '';
      if (v === '/$') {
        if (depth === 0) break;
        depth--;
      } else if (v.startsWith('$')) depth++;
    }
    // no closing marker among the siblings: the markup is not what React wrote, leave it alone
    if (!end) return;
    while (template.nextSibling && template.nextSibling !== end) template.parentNode!.removeChild(template.nextSibling);
    return;
  }
  // markers gone (stripped by a proxy or minifier): the fallback is unknown, so only a next
  // element that reads as a loading label goes (an empty skeleton left behind is harmless)
  const next = template.nextSibling;
  if (next?.nodeType !== ELEMENT || tagOf(next as Element) === 'TEMPLATE') return;
  const text = (next.textContent ?? '').trim();
  if (text.length <= 60 && LOADING.test(text)) template.parentNode!.removeChild(next);
}
