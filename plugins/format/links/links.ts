/**
 * Links format: every `a[href]` of the whole page (`doc.dom`), not only the extracted content:
 * people ask for links to discover a site, and its navigation, footer and sidebars are where the
 * site's structure lives. The page is read after cleaning and `exclude_selectors` (hidden
 * and excluded elements are gone) but regardless of `include_selectors` and `only_main_content`.
 * Hrefs are absolute http(s) without tracking parameters (`utm_*`, `fbclid` …); jumps within the
 * page (`#section`, also once URL resolution made them absolute), `javascript:`, `mailto:` and
 * other schemes are dropped; each href+text pair appears once (../shared/links.ts, which the json
 * format uses too).
 */
import { definePlugin } from '../../../core/plugin.ts';
import type { PageDocument } from '../../../core/document.ts';
import { documentBaseUrl } from '../../../core/net/url.ts';
import { pageLinks, type PageLink } from '../shared/links.ts';

export const linksFormat = definePlugin({
  kind: 'format',
  name: 'links',
  description: 'Every link on the page as {text, href}: absolute http(s) URLs, deduplicated.',
  provides: ['format:links'],
  setup: () => ({
    render(doc: PageDocument): PageLink[] {
      const scope = doc.dom ?? doc.root;
      return scope ? pageLinks(scope, documentBaseUrl(doc.dom, doc.baseUrl)) : [];
    },
  }),
});
