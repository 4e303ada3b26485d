/**
 * Writes the page type and content confidence into the page's metadata, and documents both fields
 * (the plugin's `metadataProperties`, which feed the OpenAPI of every wire format that shows them).
 */
import { dataKey, PAGE_TYPES } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { contentConfidence } from './confidence.ts';
import type { PageHints } from './hints.ts';
import { pageType } from './page-type.ts';
import type { PageSignals } from './signals.ts';

/** The signals and hints the metadata was read from (the calibration benchmark reports them page by page). */
export const PAGE_SIGNALS = dataKey<{ signals: PageSignals; hints: PageHints }>('transform.main-content.signals');

export function describePage(doc: PageDocument, signals: PageSignals, hints: PageHints): void {
  const type = pageType(signals, hints);
  doc.metadata.pageType = type;
  doc.metadata.contentConfidence = Math.round(contentConfidence(signals, type) * 1000) / 1000;
  doc.data.set(PAGE_SIGNALS, { signals, hints });
}

export const PAGE_METADATA = {
  pageType: {
    type: 'string',
    enum: [...PAGE_TYPES],
    description:
      'What kind of page this is: article (news, blog post, essay), forum (a thread: question and answers, post and replies), product (one item for sale), listing (an index of teasers: news front, search results, job board), collection (a shop category), documentation (docs, reference, tutorial), service (a landing page for a service or software), other (next to no content, or none of these). ' +
      "Told from the page's schema.org types, og:type, CMS template classes, date and author, URL words and the shape of its content (on the dev set: 88 % right, 82 % on its mixed-type part, 80 % and more for articles, forums, products and documentation, less for the listings, shop categories and service pages they resemble). Set on HTML pages with only_main_content on, and off too unless the main-content plugin's `wholePages` option is false.",
  },
  contentConfidence: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    description:
      "The chance that the returned content is the page's main content, no more and no less: that it agrees with the text people mark as the page's content (word 4-gram F1 ≥ 0.8). Calibrated on the dev set in both modes (of pages given about 0.3, about 30 % are right). " +
      'With only_main_content it rates the extraction: low for link lists, picture grids, product pages and pages whose text the markup does not hold; without it, the whole page, so a page heavy with navigation scores low. Rounded to three decimals; set when page_type is.',
  },
};
