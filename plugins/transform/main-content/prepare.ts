/**
 * Cleans the subtree before scoring: drops junk tags and hidden elements, opens `<noscript>`
 * blocks that carry real content (Discourse keeps its posts there), and removes boilerplate
 * blocks unless they hold the page's main content.
 */
import { boilerClassWords, boilerplateKind, type PageKind } from './boilerplate.ts';
import { hiddenByMarkup, isHidden } from './hidden.ts';
import type { Stats, StatsMap } from './scoring.ts';
import { postKind } from './forum.ts';
import { postMarkOf, type PostMark } from './postmarks.ts';
import { dropAllButMeta, holdsPostMeta, postHeaderOf, postMetaOf } from './postmeta.ts';
import { looksLikeProduct } from './product.ts';
import { hiddenToKeep, textLength } from './rescue.ts';
import { looksLikeArticle } from './article.ts';
import { JUNK } from './tags.ts';
import { attrsOf } from '../../../core/kit.ts';
import { attr, walkBelow, removeNode, tagOf, unwrap, visibleLength } from './walk.ts';

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

/** Paragraph text beyond which a role=tablist block is content (an accordion), not a tab strip. */
const TAB_TEXT = 200;

const CODE = new Set(['PRE', 'CODE']);

/**
 * Boilerplate blocks under `root` (outermost only), not removed: the caller measures around them
 * and may retry without. Blocks holding most of the text or a content landmark are kept.
 * `loose` finds just the comment, review and consent blocks and the landmark elements and roles
 * (footer, nav, aside, role=navigation …): what even loose passes leave out.
 */
export function findBoilerplate(root: Element, kind: PageKind, stats: StatsMap, markers: readonly Element[], loose = false): Set<Element> {
  const total = stats.get(root)?.text ?? 0;
  const totalGood = stats.get(root)?.goodText ?? 0;
  const protect = new Set<Element>();
  for (const m of markers) {
    const ms = stats.get(m);
    if (!ms || ms.text < total * 0.15) continue;
    for (let a: Node | null = m; a && a !== root; a = a.parentNode) protect.add(a as Element);
  }
  const drop = new Set<Element>();
  const byClass: Element[] = [];
  walkBelow(root, (el) => {
    if (protect.has(el)) return false;
    // (code is never boilerplate: a highlighter's spans are named "hljs-comment", "token comment")
    if (CODE.has(tagOf(el))) return true;
    const why = boilerplateKind(el, kind);
    const always = why === 'comment' || why === 'consent';
    // (class words are what misfire on odd markup; a footer or navigation landmark is that on any page)
    if (!why || (loose && (why === 'class' || why === 'tabs'))) return false;
    const s = stats.get(el);
    if (s && s.text > total * 0.5 && !always && !(why === 'tag' && linkDump(s))) return false;
    // (an <aside> holding most of the page's prose is where the page keeps its post, not a sidebar)
    if (why === 'tag' && tagOf(el) === 'ASIDE' && s && s.goodText > totalGood * MAIN_PROSE && !linkDump(s)) return false;
    if (why === 'tag' && !kind.forum && s && isCallout(el, s)) return false;
    // a tab strip is a row of labels; Bootstrap accordions (FAQs) carry role=tablist around their text
    if (why === 'tabs' && s && s.goodText >= TAB_TEXT) return false;
    // (on a thread, an author cell keeps the author's name and the post's date)
    if (kind.forum && !always && holdsPostMeta(el)) {
      dropAllButMeta(el, drop);
      return true;
    }
    drop.add(el);
    if (why === 'class') byClass.push(el);
    return true;
  });
  for (const el of repeatedBlocks(byClass, stats, total)) drop.delete(el);
  return drop;
}

/** Share of the page's good paragraph text an <aside> must hold to be the content. */
const MAIN_PROSE = 0.5;

/** Prose (visible characters, share of good paragraph text) an <aside> needs to be a callout … */
const CALLOUT_TEXT = 150;
const CALLOUT_GOOD = 0.8;
/** … and the paragraphs beside it. */
const CALLOUT_SIBLINGS = 2;

/**
 * An <aside> set among an article's paragraphs and holding link-free prose is a callout box or pull
 * quote in the flow of the text ("Not all vegetarians are the same …"), not a sidebar: sidebars sit
 * beside the text, hold links and widgets, or say what they are in their class.
 */
function isCallout(el: Element, s: Stats): boolean {
  if (tagOf(el) !== 'ASIDE' || s.text < CALLOUT_TEXT || s.goodText < s.text * CALLOUT_GOOD || s.link > s.text * 0.1) return false;
  // (a pull quote repeats a sentence of the text)
  if (boilerClassWords(el) || /pull[-_]?quote/i.test(attr(el, 'class') ?? '')) return false;
  let paras = 0;
  for (let c = el.parentNode?.firstChild ?? null; c && paras < CALLOUT_SIBLINGS; c = c.nextSibling)
    if ((c as Element).tagName === 'P') paras++;
  return paras >= CALLOUT_SIBLINGS;
}

/** A landmark (footer, nav) that is a mass of links or short labels (city and zip lists, site maps) is chrome however big. */
function linkDump(s: Stats): boolean {
  return s.link > s.text * 0.5 || s.goodText < s.text * 0.1 || s.commas * 1000 < s.text;
}

/**
 * Class-matched blocks that repeat (one tag and class, 3 or more) and together hold a good share of
 * the text: a listing built of "recirc" or "promo" rows is made of them, so they are its content
 * (a job board's rows named "listing__categories" hold a third of its page, beside a long nav and footer).
 */
/** Share of the page's text that like class-matched blocks must hold together to be its items. */
const REPEATED_SHARE = 0.3;

function repeatedBlocks(els: Element[], stats: StatsMap, total: number): Element[] {
  if (els.length < 3) return [];
  const groups = new Map<string, Element[]>();
  for (const el of els) {
    // (grouped by the words that matched: a listing's rows vary in their layout classes)
    const key = `${tagOf(el)} ${boilerClassWords(el) || attr(el, 'class') || ''}`;
    const g = groups.get(key);
    if (g) g.push(el);
    else groups.set(key, [el]);
  }
  const out: Element[] = [];
  for (const g of groups.values()) {
    if (g.length < 3) continue;
    let text = 0;
    for (const el of g) text += stats.get(el)?.text ?? 0;
    if (text > total * REPEATED_SHARE) out.push(...g);
  }
  return out;
}
