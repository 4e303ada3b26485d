/**
 * Main-content transform: narrows `doc.root` to the page's main content (article, docs page,
 * forum thread, product …), dropping navigation, headers, footers, sidebars, banners, share bars,
 * related links, comments and ads. `extractMainContent` is the pure entry point.
 */
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin.ts';
import { isArticlePage } from './article.ts';
import { isForumPage } from './forum.ts';
import { isBrokenParse, reparseBody } from './parse.ts';
import { notePostMeta } from './postmeta.ts';
import { isProductPage } from './product.ts';
import { cascade } from './pass.ts';
import { removeJunk } from './prepare.ts';
import { pageDescription, pageTitle, searchRoot } from './root.ts';
import { removeNode } from './walk.ts';

/** Results shorter than this (visible characters) fall back to the page description. */
const TINY_TEXT = 100;

export interface ExtractOptions {
  /** Treat the page as a discussion thread (keep comments/replies); detected when unset. */
  forum?: boolean;
  /** Skip the final in-content cleaning. */
  noPrune?: boolean;
}

/**
 * Finds the main content of a parsed page (settled: see parse.ts) and returns it as one element (a node of `doc`, or a
 * new container holding the content's parts in document order). Mutates `doc`: junk, hidden and
 * boilerplate elements are removed. Never throws on odd input; an empty page yields an empty element.
 */
export function extractMainContent(doc: Document, url?: string, options: ExtractOptions = {}): Element {
  const root = searchRoot(doc);
  if (!root) return doc.createElement('div');
  const title = pageTitle(doc);
  const scan = removeJunk(root);
  const forum = options.forum ?? isForumPage(doc, scan.forumHits, url);
  notePostMeta(forum ? scan.postMeta : [], root);
  const product = !forum && isProductPage(doc, scan.productHits);
  const article = !forum && !product && isArticlePage(doc, scan.articleHits, url);
  const result = cascade(root, { forum, product, article }, title, scan.markers);
  for (const el of result.pass.dropped) removeNode(el);
  if (!options.noPrune) for (const el of result.prune) removeNode(el);
  const parts = result.parts;
  if (result.text < TINY_TEXT) {
    // nothing in the markup (a client-rendered page): the page's own summary is better than nothing
    const summary = pageDescription(doc);
    if (summary.length > result.text * 1.2) {
      const p = doc.createElement('p');
      p.textContent = summary;
      const box = doc.createElement('div');
      box.appendChild(p);
      return box;
    }
  }
  if (parts.length === 1) return parts[0]!;
  const content = doc.createElement('div');
  parts[0]!.parentNode?.insertBefore(content, parts[0]!);
  for (const part of parts) content.appendChild(part);
  return content;
}

export const mainContentTransform = definePlugin({
  kind: 'transform',
  name: 'main-content',
  description: 'Keeps only the main content of a page (only_main_content): drops navigation, headers, footers, sidebars, banners, share bars, related links, comments and ads.',
  provides: ['transform:main-content'],
  order: 'normal',
  api: { requestFields: { onlyMainContent: { schema: z.boolean().default(false) } } },
  options: z.object({
    forumDetection: z.boolean().default(true).describe('Recognise forum / Q&A threads and keep their posts, authors and dates.'),
  }),
  setup(options) {
    return {
      apply(doc) {
        if (!doc.job.request.onlyMainContent || !doc.dom) return;
        let dom = doc.dom;
        // linkedom quirk (body left empty or misplaced): extract from a body-only re-parse
        if (isBrokenParse(dom) && doc.response?.text) {
          const again = reparseBody(doc.response.text);
          if (!isBrokenParse(again)) dom = again;
        }
        doc.root = extractMainContent(dom, doc.baseUrl, options.forumDetection ? {} : { forum: false });
      },
    };
  },
});
