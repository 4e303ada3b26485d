/**
 * json format: the whole extraction result as one object, under the result field `extraction`:
 *
 *   { url, metadata, content: { markdown, text }, word_count, links: [{text, href}], assets: [{type, url, alt?}] }
 *
 * Formats render side by side, so this one does not read the other formats' outputs; it calls
 * the helpers they are built on (the markdown converter, converting once per document whichever
 * format asks first, `textOf`, the link and asset collectors). Links and assets are those of the extracted content (after selectors and
 * `only_main_content`), where the `links` format lists every link of the whole page.
 */
import type TurndownService from 'turndown';
import { definePlugin } from '../../../core/plugin.ts';
import { countWords, textOf } from '../../../core/dom.ts';
import type { Metadata, PageDocument } from '../../../core/document.ts';
import { documentBaseUrl } from '../../transform/resolve-urls/urls.ts';
import { contentMarkdown, createTurndown } from '../shared/markdown.ts';
import { collectAssets, type Asset } from '../shared/assets.ts';
import { pageLinks, type PageLink } from '../shared/links.ts';

export interface Extraction {
  /** The URL as requested (normalised); `metadata.final_url` is where it led. */
  url: string;
  metadata: Metadata;
  content: { markdown: string; text: string };
  /** Words of `content.text`; the same count as `metadata.word_count`. */
  word_count: number;
  /** Links inside the extracted content: absolute http(s), tracking parameters removed, each href+text once. */
  links: PageLink[];
  /** Images, video and audio of the extracted content, in document order. */
  assets: Asset[];
}

export function buildExtraction(doc: PageDocument, service: TurndownService): Extraction {
  const root = doc.root;
  const text = root ? textOf(root) : '';
  const base = documentBaseUrl(doc.dom, doc.baseUrl);
  return {
    url: doc.job.url,
    metadata: doc.metadata,
    content: { markdown: contentMarkdown(doc, service), text },
    word_count: countWords(text),
    links: root ? pageLinks(root, base) : [],
    assets: root ? collectAssets(root, base) : [],
  };
}

export const jsonFormat = definePlugin({
  kind: 'format',
  name: 'json',
  description: 'The full extraction result in `extraction`: metadata, content as markdown and text, word count, the content\'s links and assets.',
  provides: ['format:json'],
  setup: () => {
    const service = createTurndown();
    return { render: (doc: PageDocument) => buildExtraction(doc, service) };
  },
});
