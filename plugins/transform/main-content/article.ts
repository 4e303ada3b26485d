/**
 * Article page recognition (og:type article, schema.org Article / NewsArticle / BlogPosting in
 * JSON-LD). An article's content is its body: the headline block above it (kicker, title, dek,
 * byline, date, share bar) is metadata, while on other pages what sits under the H1 starts the content.
 */
import { attr } from './walk.ts';

const ARTICLE_TYPES =
  '(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|TechArticle|LiveBlogPosting|ScholarlyArticle)';
export const LD_ARTICLE = new RegExp(`"@type"\\s*:\\s*\\[?\\s*"${ARTICLE_TYPES}"`);
/** The same types in microdata (itemtype="https://schema.org/BlogPosting"). */
export const ITEM_ARTICLE = new RegExp(`schema\\.org/${ARTICLE_TYPES}(?:\\s|$)`);

/** Is this a JSON-LD script describing an article? */
export function looksLikeArticle(el: Element, tag: string): boolean {
  return tag === 'SCRIPT' && attr(el, 'type') === 'application/ld+json' && LD_ARTICLE.test(el.textContent ?? '');
}

/** Blog and news paths, and dated ones ("/2024/05/…"): where publishers keep their articles. */
const ARTICLE_URL = /\/(?:blogs?|news|articles?|stor(?:y|ies)|insights?|magazine|journal)\/|\/20\d\d\/(?:[01]?\d\/)?/i;

/** JSON-LD naming the page a plain WebPage (an SEO plugin's graph for a page that is not a post). */
const LD_WEB_PAGE = /"@type"\s*:\s*\[?\s*"WebPage"/;

/**
 * Decides from the body scan's article scripts, the head's og:type and JSON-LD, and the URL's
 * path. SEO plugins write og:type "article" on every page of a site, service pages included; where
 * the head's JSON-LD describes the page as a plain WebPage and names no article, that says more.
 */
export function isArticlePage(doc: Document, articleHits: number, url?: string): boolean {
  if (articleHits > 0) return true;
  if (url && ARTICLE_URL.test(url.replace(/^[a-z]+:\/\/[^/]+/i, ''))) return true;
  let ogArticle = false;
  let webPage = false;
  for (let c = doc.head?.firstElementChild ?? null; c; c = c.nextElementSibling) {
    if (c.tagName === 'META' && attr(c, 'property') === 'og:type' && /^article/i.test(attr(c, 'content') ?? '')) ogArticle = true;
    else if (c.tagName === 'SCRIPT' && attr(c, 'type') === 'application/ld+json') {
      const ld = c.textContent ?? '';
      if (LD_ARTICLE.test(ld)) return true;
      if (LD_WEB_PAGE.test(ld)) webPage = true;
    }
  }
  return ogArticle && !webPage;
}
