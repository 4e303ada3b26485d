/**
 * Where to look for content. linkedom sometimes leaves `document.body` empty (when markup comes
 * before `<head>`, it opens an empty head/body pair and puts the real page in later siblings);
 * then the whole `<html>` element is searched instead (heads are skipped by every pass).
 */
import { attr, visibleLength } from './walk.ts';

export function searchRoot(doc: Document): Element | null {
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

/** The page title: og:title, else <title>, with a trailing " | Site" / " - Site" part cut. */
export function pageTitle(doc: Document): string {
  let og = '';
  let title = '';
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName === 'TITLE' && !title) title = c.textContent ?? '';
    else if (c.tagName === 'META' && attr(c, 'property') === 'og:title') og = attr(c, 'content') ?? '';
  }
  const raw = (og || title).replace(/\s+/g, ' ').trim();
  const cut = raw.split(/\s[|\-–—»:]\s/);
  return cut.length > 1 && cut[0]!.split(' ').length >= 3 ? cut[0]! : raw;
}

/** The page's meta / og description, whitespace collapsed. */
export function pageDescription(doc: Document): string {
  const head = doc.head;
  let found = '';
  if (head) {
    for (let c = head.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName !== 'META') continue;
      const key = (attr(c, 'name') ?? attr(c, 'property') ?? '').toLowerCase();
      if (key === 'description' || key === 'og:description') {
        const v = (attr(c, 'content') ?? '').replace(/\s+/g, ' ').trim();
        if (v.length > found.length) found = v;
      }
    }
  }
  return found;
}
