/**
 * Main-content transform: narrows `doc.root` to the page's main content (article, docs page,
 * forum thread, product …), dropping navigation, headers, footers, sidebars, banners, share bars,
 * related links, comments and ads. It works on what the earlier transforms left (the cleaned body,
 * or the include_selectors selection) and reads only the page's head from `doc.dom` (title,
 * description, page-type hints). `extractMainContent` is the pure entry point.
 */
import { z } from 'zod';
import { definePlugin, SCHEMA_TYPES } from '../../../core/kit.ts';
import { isArticlePage } from './article.ts';
import { isForumPage, isForumUrl, threadComments } from './forum.ts';
import { findThread } from './posts.ts';
import { measure } from './scoring.ts';
import { notePostMeta } from './postmeta.ts';
import { isProductPage } from './product.ts';
import { cascade } from './cascade.ts';
import type { PassResult } from './pass.ts';
import { removeJunk } from './prepare.ts';
import { pageDescription, pageTitle, pageTitles, siteName } from './root.ts';
import { metaLine, titleWords, type TitleWords } from './metalines.ts';
import { flatText, removeNode } from './walk.ts';
import { trimEdges } from './edges.ts';
import { dropCaptions } from './captions.ts';
import { findHeadline, keepHeadline } from './headline.ts';
import { extractionSignals, pageSignals, type PageSignals } from './signals.ts';
import { describePage, PAGE_METADATA } from './describe.ts';
import { pageHints } from './hints.ts';

/** Results shorter than this (visible characters) fall back to the page description. */
const TINY_TEXT = 100;

export interface ExtractOptions {
  /** The whole page, whose head gives the title, description and page-type hints; `root`'s own document when unset. */
  page?: Document;
  /** The page URL (some page types show in it). */
  url?: string;
  /** Treat the page as a discussion thread (keep comments/replies); detected when unset. */
  forum?: boolean;
  /** `root` is a block the request selected (include_selectors): its text, however short, beats the page's description. */
  selection?: boolean;
  /** Skip the final in-content cleaning. */
  noPrune?: boolean;
  /** Handed what the extraction learnt (signals.ts): what the page type and content confidence are read from. */
  onSignals?: (signals: PageSignals) => void;
}

/**
 * Finds the main content under `root` and returns it as one element (a node under `root`, or a
 * new container holding the content's parts in document order). Mutates `root`: junk, hidden and
 * boilerplate elements are removed. Never throws on odd input; an empty root yields an empty element.
 */
export function extractMainContent(root: Element, options: ExtractOptions = {}): Element {
  const doc = options.page ?? root.ownerDocument;
  const url = options.url;
  const title = pageTitle(doc);
  const headlineWords = titleWords(title, ...pageTitles(doc));
  // (a selection is what the user chose to read: nothing from outside it is added)
  const headline = options.selection ? null : findHeadline(root, [title, ...pageTitles(doc)], siteName(doc));
  const scan = removeJunk(root);
  const stats = measure(root);
  let forum =
    options.forum ??
    isForumPage(doc, scan.forumHits + threadComments(doc, scan.comments, scan.articleHits + scan.articleItems, root, stats), url);
  // (a thread in markup no forum software is known by shows in its structure, and its posts' signatures are their meta lines)
  const thread =
    options.forum !== false && (!forum || !scan.postMeta.length) ? findThread(root, scan.postMarks, stats, isForumUrl(url)) : null;
  if (thread && options.forum === undefined) forum = true;
  notePostMeta(forum ? (scan.postMeta.length ? scan.postMeta : (thread?.meta ?? [])) : [], root);
  const product = !forum && isProductPage(doc, scan.productHits);
  const article = !forum && !product && isArticlePage(doc, scan.articleHits, url);
  const result = cascade(root, { forum, product, article }, title, scan.markers, stats);
  const report = (described: boolean) => options.onSignals?.({ ...extractionSignals({ forum, product }, result), described });
  for (const el of result.pass.dropped) removeNode(el);
  // (the headline heading cleaned away as the title stays until the edges are read: the site's chrome is what sits above it)
  const heading = options.noPrune ? null : prunedHeadline(result.prune, headlineWords);
  if (!options.noPrune) for (const el of result.prune) if (el !== heading) removeNode(el);
  const parts = result.parts;
  if (!options.noPrune && !result.pass.forum && !result.pass.product) {
    // (an article's edges are read even when its list of other stories outweighs it, a breaking story's;
    // captions are text only on prose: a gallery's are what it shows)
    const prose = isProse(result);
    if ((prose || article) && trimEdges(parts, headlineWords, article) && prose) dropCaptions(parts);
  }
  if (heading) removeNode(heading);
  if (result.text < TINY_TEXT && !options.selection) {
    // nothing in the markup (a client-rendered page): the page's own summary is better than nothing
    const summary = pageDescription(doc);
    if (summary.length > result.text * 1.2) {
      const p = root.ownerDocument.createElement('p');
      p.textContent = summary;
      const box = root.ownerDocument.createElement('div');
      box.appendChild(p);
      report(true);
      return keepHeadline(box, headline);
    }
  }
  const content = parts.length === 1 ? parts[0]! : root.ownerDocument.createElement('div');
  if (parts.length > 1) {
    parts[0]!.parentNode?.insertBefore(content, parts[0]!);
    for (const part of parts) content.appendChild(part);
  }
  report(false);
  return keepHeadline(content, headline);
}

/** The headline heading among the cleaned-away elements (the title repeated, see prune.ts), or null. */
function prunedHeadline(prune: ReadonlySet<Element>, words: TitleWords): Element | null {
  for (const el of prune) {
    const tag = el.tagName;
    if ((tag === 'H1' || tag === 'H2') && metaLine(flatText(el), words) === 'title') return el;
  }
  return null;
}

/** Share of the content's text in good paragraphs above which it is prose (an article), not a listing's links. */
const PROSE_SHARE = 0.5;

function isProse(result: PassResult): boolean {
  let good = 0;
  for (const p of result.parts) good += result.stats.get(p)?.goodText ?? 0;
  return good >= result.partsText * PROSE_SHARE;
}

export const mainContentTransform = definePlugin({
  kind: 'transform',
  name: 'main-content',
  description:
    "Keeps only the main content of a page (only_main_content; inside the include_selectors selection when one is given): drops navigation, headers, footers, sidebars, banners, share bars, related links, comments and ads. Tells every web page's type and how sure it is of the content (metadata.page_type, content_confidence).",
  provides: ['transform:main-content'],
  order: 'normal',
  api: { requestFields: { onlyMainContent: { schema: z.boolean().default(false) } }, metadataProperties: PAGE_METADATA },
  options: z.object({
    forumDetection: z.boolean().default(true).describe('Recognise forum / Q&A threads and keep their posts, authors and dates.'),
    wholePages: z
      .boolean()
      .default(true)
      .describe(
        'Tell metadata.page_type and content_confidence with only_main_content off too (one read-only measuring walk over the page, where extraction is not run).',
      ),
  }),
  setup(options) {
    return {
      apply(doc) {
        if (!doc.root) return;
        const page = doc.dom ?? undefined;
        const url = doc.baseUrl;
        // (web pages are typed, documents are not: a PDF's or a sheet's kind is its file type; the
        // HTML document plugin, which reads a page's schema.org types, marks the web pages)
        const schemaTypes = doc.data.get(SCHEMA_TYPES);
        let signals: PageSignals | undefined;
        if (doc.job.request.onlyMainContent) {
          const forum = options.forumDetection ? {} : { forum: false };
          // (the selectors transform hands over its selection as a detached container; a page's body has a parent)
          const selection = !doc.root.parentNode;
          doc.root = extractMainContent(doc.root, { page, url, selection, ...forum, onSignals: (s) => (signals = s) });
        } else if (options.wholePages && schemaTypes) signals = pageSignals(doc.root, page ?? doc.root.ownerDocument, url);
        if (signals && schemaTypes) describePage(doc, signals, pageHints(page, url, schemaTypes, doc.metadata));
      },
    };
  },
});
