/**
 * html format: the content as HTML after cleaning, selectors, main content and URL resolution —
 * the intermediate form every other content format is made from (rawHtml is the page as received).
 */
import { definePlugin } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';

export const htmlFormat = definePlugin({
  kind: 'format',
  name: 'html',
  description: 'The content as cleaned HTML with absolute URLs (only the main content with only_main_content).',
  provides: ['format:html'],
  setup: () => ({
    render: (doc: PageDocument) => doc.contentHtml,
  }),
});
