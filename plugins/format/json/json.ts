/**
 * json format: the whole extraction result as one object (core's `Extraction`; /v1 shows it as
 * `extraction`):
 *
 *   { url, metadata, content: { markdown, text }, wordCount, links: [{text, href}], assets: [{type, url, alt?}] }
 *
 * Formats render side by side, so this one does not read the other formats' outputs; it calls
 * the helpers they are built on (the markdown converter, converting once per document whichever
 * format asks first, `textOf`, the link and asset collectors). Links and assets are those of the extracted content (after selectors and
 * `only_main_content`), where the `links` format lists every link of the whole page.
 */
import type TurndownService from 'turndown';
import { baseHref, baseUrlFrom, countWords, definePlugin, textOf } from '../../../core/kit.ts';
import type { Extraction, PageDocument } from '../../../core/kit.ts';
import { contentMarkdown, createTurndown } from '../shared/markdown.ts';
import { collectAssets } from '../shared/assets.ts';
import { pageLinks } from '../shared/links.ts';

export type { Extraction } from '../../../core/kit.ts';

export function buildExtraction(doc: PageDocument, service: TurndownService): Extraction {
  const root = doc.root;
  const text = root ? textOf(root) : '';
  const base = baseUrlFrom(baseHref(doc.dom), doc.baseUrl);
  return {
    url: doc.job.url,
    metadata: doc.metadata,
    content: { markdown: contentMarkdown(doc, service), text },
    wordCount: countWords(text),
    links: root ? pageLinks(root, base) : [],
    assets: root ? collectAssets(root, base) : [],
  };
}

export const jsonFormat = definePlugin({
  kind: 'format',
  name: 'json',
  description:
    "The full extraction result in `extraction`: metadata, content as markdown and text, word count, the content's links and assets.",
  provides: ['format:json'],
  setup: () => {
    const service = createTurndown();
    return { render: (doc: PageDocument) => buildExtraction(doc, service) };
  },
});
