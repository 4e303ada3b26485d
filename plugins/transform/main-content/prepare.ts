/**
 * Cleans the subtree before scoring: drops junk tags and hidden elements and opens `<noscript>`
 * blocks that carry real content (Discourse keeps its posts there), in one walk that also notes
 * the page's landmarks and its forum, product and article signs. (Boilerplate blocks: boiler-blocks.ts.)
 */
import { hiddenByMarkup, isHidden } from './hidden.ts';
import { postKind } from './forum.ts';
import { postMarkOf, type PostMark } from './postmarks.ts';
import { postHeaderOf, postMetaOf } from './postmeta.ts';
import { looksLikeProduct } from './product.ts';
import { hiddenToKeep, textLength } from './rescue.ts';
import { looksLikeArticle } from './article.ts';
import { JUNK } from './tags.ts';
import { attrsOf } from '../../../core/kit.ts';
import { walkBelow, removeNode, tagOf, unwrap, visibleLength } from './walk.ts';

export interface ScanInfo {
  /** Content landmarks: article, main, role=main, itemprop=articleBody/text. */
  markers: Element[];
  /** Elements that look like forum posts (see forum.ts). */
  forumHits: number;
  /** schema.org Comment items (outermost), and articles declared in microdata (see forum.ts). */
  comments: Element[];
  articleItems: number;
  /** Post dates and authors' profile links (see postmarks.ts). */
  postMarks: PostMark[];
  /** Product marks in the body (JSON-LD Product scripts, Product microdata, buy boxes): 0, or 1 once one is found. */
  productHits: number;
  /** JSON-LD article scripts in the body (see article.ts). */
  articleHits: number;
  /** Post author names and date lines (see postmeta.ts). */
  postMeta: Element[];
}

/**
 * Removes junk and hidden elements and unwraps content-bearing noscript, in one walk that also
 * notes content landmarks and forum-post signs.
 */
export function removeJunk(root: Element): ScanInfo {
  const info: ScanInfo = {
    markers: [],
    forumHits: 0,
    comments: [],
    articleItems: 0,
    postMarks: [],
    productHits: 0,
    articleHits: 0,
    postMeta: [],
  };
  const queue: Element[] = [root];
  let total = -1;
  const pageText = () => (total < 0 ? (total = textLength(root, false)) : total);
  while (queue.length) {
    const top = queue.pop()!;
    const { drop, hidden, noscripts } = scan(top, info);
    for (const el of drop) removeNode(el);
    const keep = hiddenToKeep(hidden, top === root, pageText);
    for (const el of hidden) {
      if (keep.has(el)) queue.push(el);
      else removeNode(el);
    }
    for (const ns of noscripts) {
      if (!ns.parentNode) continue;
      if (ns.firstElementChild && visibleLength(ns.textContent ?? '') >= 160) unwrap(ns);
      else removeNode(ns);
    }
  }
  return info;
}

/** The attributes the scan reads (see attrsOf). */
const SCANNED = ['class', 'role', 'itemprop', 'itemtype', 'datetime', 'rel', 'hidden', 'aria-hidden', 'style', 'id'] as const;

function scan(top: Element, info: ScanInfo) {
  const values: Array<string | null> = [];
  const noscripts: Element[] = [];
  const drop: Element[] = [];
  const hidden: Element[] = [];
  let lastPost: Element | null = null;
  walkBelow(top, (el) => {
    const tag = tagOf(el);
    if (tag === 'HEAD') return true; // never touch the head: metadata lives there
    // every attribute the checks below read, in one pass (the class is undefined where there are no attributes)
    const [c, role, prop, itemtype, datetime, rel, hiddenAttr, ariaHidden, style, id] = attrsOf(el, SCANNED, values);
    const cls = el.hasAttributes() ? c : undefined;
    if (tag === 'ARTICLE' || tag === 'MAIN') info.markers.push(el);
    else if (cls !== undefined) {
      if (role === 'main' || prop === 'articleBody' || prop === 'text') info.markers.push(el);
    }
    const post = postKind(el, tag, cls, itemtype);
    if (post === 'article') info.articleItems++;
    else if (post) {
      // (a post's body inside its container is the same post: a blog's one entry is not a thread)
      if (!lastPost?.contains(el)) {
        if (post === 'post') info.forumHits++;
        else info.comments.push(el);
        lastPost = el;
      }
      const header = postHeaderOf(el);
      if (header) info.postMeta.push(header);
    }
    const mark = postMarkOf(el, tag, cls, prop, datetime, rel);
    if (mark) info.postMarks.push(mark);
    const meta = cls ? postMetaOf(el, tag, cls) : null;
    if (meta) info.postMeta.push(meta);
    // (one mark decides: the buy-box test reads ancestors' text, so it stops at the first)
    if (!info.productHits && cls !== undefined && looksLikeProduct(el, tag, cls, itemtype, id)) info.productHits++;
    if (cls !== undefined && looksLikeArticle(el, tag)) info.articleHits++;
    if (JUNK.has(tag)) {
      drop.push(el);
      return true;
    }
    if (tag === 'NOSCRIPT') {
      noscripts.push(el);
      return false;
    }
    if (cls !== undefined && isHidden(el, cls, hiddenByMarkup(hiddenAttr, ariaHidden, style, cls))) {
      hidden.push(el);
      return true;
    }
    return false;
  });
  return { drop, hidden, noscripts };
}
