/**
 * Links format: every `<a href>` and `<area href>` of the whole page as fetched or rendered, not
 * only the extracted content: people ask for links to discover a site, and its navigation, footer
 * and sidebars are where the site's structure lives. The page is read before any transform
 * (`capture`), so `only_main_content`, `include_selectors`, `exclude_selectors` and the cleaning of
 * hidden elements never change the list; crawls discover their links through this format.
 * Hrefs are absolute http(s) without tracking parameters (`utm_*`, `fbclid` …); jumps within the
 * page (`#section`, also once URL resolution made them absolute), `javascript:`, `mailto:` and
 * other schemes are dropped; each href+text pair appears once (../shared/links.ts, which the json
 * format uses too).
 */
import { baseHref, baseUrlFrom, dataKey, definePlugin } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { pageLinks, type PageLink } from '../shared/links.ts';

export const linksFormat = definePlugin({
  kind: 'format',
  name: 'links',
  description: 'Every link on the page as {text, href}: absolute http(s) URLs, deduplicated.',
  provides: ['format:links'],
  setup: () => ({
    capture(doc: PageDocument): void {
      doc.data.set(PAGE_LINKS, allLinks(doc));
    },
    render(doc: PageDocument): PageLink[] {
      return doc.data.get(PAGE_LINKS) ?? allLinks(doc);
    },
  }),
});

/** The page's links as the document stage left it, taken before transforms narrow or prune it. */
const PAGE_LINKS = dataKey<PageLink[]>('links.page');

function allLinks(doc: PageDocument): PageLink[] {
  const scope = doc.dom ?? doc.root;
  return scope ? pageLinks(scope, baseUrlFrom(baseHref(doc.dom), doc.baseUrl)) : [];
}
