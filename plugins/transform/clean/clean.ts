/**
 * Clean transform: strips what is markup rather than content (scripts, styles, embeds, comments,
 * icons) and what a reader of the rendered page would not see. It never drops anything for being
 * off-topic: that is the main-content transform's call.
 *
 * `iframe`/`frame`/`object`/`embed` go too: their documents are not fetched, so all that is left
 * is fallback text ("your browser does not support iframes") or ad and tag-manager frames.
 */
import { attr, definePlugin, SHOW_COMMENT, SHOW_ELEMENT, tagOf, walkNodes } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { removeInvisible, replaceSvgs } from './visibility.ts';
import { expandNoscript, resolveNoscripts } from './noscript.ts';

/**
 * Tags that are markup, not content (upper case, as tagOf gives them). `noframes` and `noembed`
 * hold raw text that browsers, which show frames and embeds, never render.
 */
const NOT_CONTENT = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'LINK',
  'META',
  'BASE',
  'IFRAME',
  'FRAME',
  'FRAMESET',
  'NOFRAMES',
  'OBJECT',
  'EMBED',
  'NOEMBED',
  'APPLET',
  'CANVAS',
]);

/**
 * Comments and elements that are not content, in one sweep of linkedom's node list (a selector
 * query tested every element against each tag in turn). A closed dialog is not rendered; an open
 * one is part of the page. Each `<noscript>` is opened as the sweep reaches it, so the sweep goes
 * on through its markup, cleaned like the rest (a noscript inside that markup is left as parsed).
 */
function notContent(root: Element): Node[] {
  const found: Node[] = [];
  let opened: Element | null = null;
  walkNodes(root, SHOW_ELEMENT | SHOW_COMMENT, (node) => {
    if (node.nodeType !== 1) found.push(node);
    else {
      const el = node as Element;
      const tag = tagOf(el);
      if (tag === 'NOSCRIPT' && !opened?.contains(el)) {
        expandNoscript(el);
        opened = el;
      }
      if (NOT_CONTENT.has(tag) || (tag === 'DIALOG' && attr(el, 'open') === null)) found.push(node);
    }
  });
  return found;
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

/** What main content reads before dropping it (see CleanOptions): `script[type="application/ld+json"]`. */
const isJsonLd = (el: Node) =>
  el.nodeType === 1 && tagOf(el as Element) === 'SCRIPT' && attr(el as Element, 'type')?.toLowerCase() === 'application/ld+json';

export function cleanContent(root: Element, options: CleanOptions = {}): void {
  for (const node of notContent(root)) if (!options.beforeMainContent || !isJsonLd(node)) node.parentNode?.removeChild(node);
  if (options.beforeMainContent) return;
  removeInvisible(root);
  replaceSvgs(root);
  // Last, so the noscript content it may keep has been cleaned like the rest.
  resolveNoscripts(root);
}

export const cleanTransform = definePlugin({
  kind: 'transform',
  name: 'clean',
  description:
    'Removes scripts, styles, embeds, comments, icons and hidden elements (with only_main_content, hidden elements, SVGs, noscript and JSON-LD are left to main content, which judges them itself); keeps <noscript> content that carries real text.',
  order: 'pre',
  setup: () => ({
    apply(doc: PageDocument) {
      if (doc.root) cleanContent(doc.root, { beforeMainContent: doc.job.request.onlyMainContent });
    },
  }),
});
