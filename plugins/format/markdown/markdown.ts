/**
 * Markdown format: the content root as markdown (the conversion every format shares lives in
 * ../shared/markdown.ts); also publishes the content's assets.
 */
import { baseHref, baseUrlFrom, dataKey, definePlugin } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { contentMarkdown, createTurndown } from '../shared/markdown.ts';
import { collectAssets, type Asset } from '../shared/assets.ts';

/** The content's media, published for whoever reads the document after rendering. */
export const ASSETS_KEY = dataKey<Asset[]>('format.markdown.assets');

export const markdownFormat = definePlugin({
  kind: 'format',
  name: 'markdown',
  description: "Clean markdown (GFM tables, fenced code) with resolved URLs; collects the content's images, video and audio as assets.",
  provides: ['format:markdown'],
  setup: () => {
    const service = createTurndown();
    return {
      render(doc: PageDocument) {
        if (!doc.root) return '';
        doc.data.set(ASSETS_KEY, collectAssets(doc.root, baseUrlFrom(baseHref(doc.dom), doc.baseUrl)));
        return contentMarkdown(doc, service);
      },
    };
  },
});
