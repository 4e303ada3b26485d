/**
 * rawHtml format: the page exactly as the server sent it (decoded to text), before cleaning,
 * selectors or extraction. A binary document (PDF, DOCX …) has no HTML of its own; it gets
 * the HTML Trawl built from it, with a warning saying so.
 */
import { definePlugin, responseText } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';

const PLUGIN_ID = 'format.raw-html';

export function rawHtml(doc: PageDocument): string {
  const response = doc.response;
  if (response && (response.text !== undefined || doc.type === 'document.html')) return responseText(response);
  doc.warn('format', PLUGIN_ID, 'The response is not HTML; rawHtml holds the HTML built from the document');
  return doc.dom?.documentElement?.outerHTML ?? doc.contentHtml;
}

export const rawHtmlFormat = definePlugin({
  kind: 'format',
  name: 'raw-html',
  description: 'The HTML as received from the server, decoded, before any processing.',
  provides: ['format:rawHtml'],
  setup: () => ({ render: rawHtml }),
});
