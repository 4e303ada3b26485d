/**
 * Clean transform: strips what is markup rather than content (scripts, styles, embeds, comments,
 * icons) and what a reader of the rendered page would not see. It never drops anything for being
 * off-topic: that is the main-content transform's call.
 *
 * `iframe`/`frame`/`object`/`embed` go too: their documents are not fetched, so all that is left
 * is fallback text ("your browser does not support iframes") or ad and tag-manager frames.
 */
import { definePlugin } from '../../../core/plugin.ts';
import type { PageDocument } from '../../../core/document.ts';
import { removeInvisible, replaceSvgs } from './visibility.ts';
import { expandNoscripts, resolveNoscripts } from './noscript.ts';

const NOT_CONTENT = [
  'script', 'style', 'template', 'link', 'meta', 'base',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'canvas',
  // A closed dialog is not rendered; an open one is part of the page.
  'dialog:not([open])',
].join(', ');

const COMMENT_NODE = 8;

export function removeComments(root: Node): void {
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (const child of [...node.childNodes]) {
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (child.nodeType === 1) stack.push(child);
    }
  }
}

export interface CleanOptions {
  /**
   * Main content runs next (only_main_content): leave it what it judges better itself. Hidden
   * elements: it tells folded-away content (closed accordions and tabs, a deferred block on an
   * empty shell, a hidden wrapper around the whole page) from what is really not shown. SVGs,
   * `<noscript>` and JSON-LD scripts: it scores with them (a page's type, where its content is)
   * and drops or opens them by itself. Cleaning them here first cost 0.001 F1 on the dev set.
   */
  beforeMainContent?: boolean;
}

/** What main content reads before dropping it (see CleanOptions). */
const JSON_LD = 'script[type="application/ld+json"]';

export function cleanContent(root: Element, options: CleanOptions = {}): void {
  // First, so the markup inside noscripts is cleaned like the rest.
  expandNoscripts(root);
  removeComments(root);
  for (const el of root.querySelectorAll(NOT_CONTENT)) if (!options.beforeMainContent || !el.matches(JSON_LD)) el.remove();
  if (options.beforeMainContent) return;
  removeInvisible(root);
  replaceSvgs(root);
  // Last, so the noscript content it may keep has been cleaned like the rest.
  resolveNoscripts(root);
}

export const cleanTransform = definePlugin({
  kind: 'transform',
  name: 'clean',
  description: 'Removes scripts, styles, embeds, comments, icons and hidden elements (with only_main_content, hidden elements, SVGs, noscript and JSON-LD are left to main content, which judges them itself); keeps <noscript> content that carries real text.',
  order: 'pre',
  setup: () => ({
    apply(doc: PageDocument) {
      if (doc.root) cleanContent(doc.root, { beforeMainContent: doc.job.request.onlyMainContent });
    },
  }),
});
