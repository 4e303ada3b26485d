/**
 * URL resolution transform: rewrites every reference inside the content (links, images, srcsets,
 * media sources, lazy-loaded images) to an absolute URL against the page's base (honouring
 * `<base href>`), so formats can emit the content anywhere. Runs last, on whatever the content
 * root has become.
 */
import {
  absoluteSrcset,
  absoluteUrl,
  attr,
  baseHref,
  baseUrlFrom,
  definePlugin,
  largestCandidate,
  parseSrcset,
  tagOf,
  walkElements,
} from '../../../core/kit.ts';
import type { DomElement, PageDocument } from '../../../core/kit.ts';
import { isPlaceholderSrc, LAZY_SRC_ATTRIBUTES, LAZY_SRCSET_ATTRIBUTES } from '../shared/lazy.ts';

function firstAttribute(el: DomElement, names: readonly string[]): string | null {
  for (const name of names) {
    const value = el.getAttribute(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** Promotes lazy-load attributes over a placeholder `src`/missing `srcset`. */
function applyLazyAttributes(el: DomElement): void {
  const lazySrc = firstAttribute(el, LAZY_SRC_ATTRIBUTES);
  if (lazySrc && isPlaceholderSrc(el.getAttribute('src'))) el.setAttribute('src', lazySrc);
  const lazySrcset = firstAttribute(el, LAZY_SRCSET_ATTRIBUTES);
  if (lazySrcset && !el.getAttribute('srcset')?.trim()) el.setAttribute('srcset', lazySrcset);
}

function resolveAttribute(el: DomElement, name: string, base: string): void {
  const value = el.getAttribute(name);
  if (value === null) return;
  // data: URIs are already absolute; skip them so huge inline images are not re-serialised.
  if (value.trim().startsWith('data:')) return;
  const resolved = absoluteUrl(value, base);
  if (resolved) el.setAttribute(name, resolved);
}

function resolveSrcset(el: DomElement, base: string): void {
  const srcset = el.getAttribute('srcset');
  if (srcset === null) return;
  el.setAttribute('srcset', absoluteSrcset(srcset, base));
}

/** An image whose src is still a placeholder takes the largest srcset candidate (own, else its picture's). */
function fillImageSrc(img: DomElement): void {
  if (!isPlaceholderSrc(img.getAttribute('src'))) return;
  const sources = [img, ...(img.parentElement?.tagName === 'PICTURE' ? [...img.parentElement.querySelectorAll('source')] : [])];
  for (const source of sources) {
    const best = largestCandidate(parseSrcset(source.getAttribute('srcset') ?? ''));
    if (best) {
      img.setAttribute('src', best.url);
      return;
    }
  }
}

/** The elements that carry URLs, by kind, gathered in one sweep (each selector query was a walk of its own). */
function referencing(root: DomElement) {
  const found = { links: [] as DomElement[], images: [] as DomElement[], media: [] as DomElement[], videos: [] as DomElement[] };
  walkElements(root, (el) => {
    const tag = tagOf(el);
    // a template's contents are not part of the page (selector queries skip them too)
    if (tag === 'TEMPLATE') return true;
    if (tag === 'A' || tag === 'AREA') {
      if (attr(el, 'href') !== null) found.links.push(el);
    } else if (tag === 'IMG' || tag === 'SOURCE') found.images.push(el);
    else if (tag === 'VIDEO' || tag === 'AUDIO' || tag === 'TRACK' || tag === 'EMBED') {
      found.media.push(el);
      if (tag === 'VIDEO') found.videos.push(el);
    }
  });
  return found;
}

function resolveLinks(links: DomElement[], base: string): void {
  for (const link of links) {
    if (/^\s*javascript:/i.test(link.getAttribute('href') ?? '')) {
      // The text stays readable; only the script target goes.
      if (link.tagName === 'A') link.replaceWith(...link.childNodes);
      else link.removeAttribute('href');
      continue;
    }
    resolveAttribute(link, 'href', base);
  }
}

export function resolveUrls(root: DomElement, base: string): void {
  const { links, images, media, videos } = referencing(root);
  resolveLinks(links, base);
  for (const el of images) {
    applyLazyAttributes(el);
    resolveAttribute(el, 'src', base);
    resolveSrcset(el, base);
  }
  for (const img of images) if (tagOf(img) === 'IMG') fillImageSrc(img);
  for (const el of media) resolveAttribute(el, 'src', base);
  for (const el of videos) if (el.hasAttribute('poster')) resolveAttribute(el, 'poster', base);
}

export const resolveUrlsTransform = definePlugin({
  kind: 'transform',
  name: 'resolve-urls',
  description: 'Makes links, images, srcsets, media sources and lazy-loaded images absolute; drops javascript: links but keeps their text.',
  order: 'post',
  setup: () => ({
    apply(doc: PageDocument) {
      if (!doc.root) return;
      resolveUrls(doc.root, baseUrlFrom(baseHref(doc.dom), doc.baseUrl));
    },
  }),
});
