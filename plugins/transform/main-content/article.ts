/**
 * Article page recognition (og:type article, schema.org Article / NewsArticle / BlogPosting in
 * JSON-LD). An article's content is its body: the headline block above it (kicker, title, dek,
 * byline, date, share bar) is metadata, while on other pages what sits under the H1 starts the content.
 */
import { attr } from './walk.ts';

const LD_ARTICLE = /"@type"\s*:\s*\[?\s*"(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|TechArticle|LiveBlogPosting|ScholarlyArticle)"/;

/** Is this a JSON-LD script describing an article? */
export function looksLikeArticle(el: Element, tag: string): boolean {
  return tag === 'SCRIPT' && attr(el, 'type') === 'application/ld+json' && LD_ARTICLE.test(el.textContent ?? '');
}

/** Blog and news paths, and dated ones ("/2024/05/…"): where publishers keep their articles. */
const ARTICLE_URL = /\/(?:blogs?|news|articles?|stor(?:y|ies)|insights?|magazine|journal)\/|\/20\d\d\/(?:[01]?\d\/)?/i;

/** Decides from the body scan's article scripts, the head's og:type and JSON-LD, and the URL's path. */
export function isArticlePage(doc: Document, articleHits: number, url?: string): boolean {
  if (articleHits > 0) return true;
  if (url && ARTICLE_URL.test(url.replace(/^[a-z]+:\/\/[^/]+/i, ''))) return true;
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName === 'META' && attr(c, 'property') === 'og:type' && /^article/i.test(attr(c, 'content') ?? '')) return true;
    if (looksLikeArticle(c, c.tagName)) return true;
  }
  return false;
}
