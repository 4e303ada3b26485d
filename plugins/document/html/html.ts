/**
 * HTML document plugin: recognises HTML and XHTML responses (and HTML served as text/plain or
 * with no type, by sniffing), parses them into `doc.dom` with the body as the content root, and
 * fills the page metadata. Metadata is read here, before any transform strips `<script>` (JSON-LD)
 * or narrows the content.
 */
import { definePlugin } from '../../../core/plugin.ts';
import { parseHtmlDocument } from '../../../core/dom.ts';
import type { FetchedResponse, PageDocument } from '../../../core/document.ts';
import { extractMetadata } from './metadata.ts';
import { responseText } from './decode.ts';
import { looksLikeHtml } from './sniff.ts';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Types servers send for HTML by mistake (misconfigured static hosts, missing header). */
const SNIFFED_TYPES = new Set(['text/plain', '']);
const SNIFF_BYTES = 1024;

export function isHtmlResponse(response: FetchedResponse): boolean {
  const type = response.mediaType.trim().toLowerCase();
  if (HTML_TYPES.has(type)) return true;
  if (!SNIFFED_TYPES.has(type)) return false;
  const start = response.text?.slice(0, SNIFF_BYTES) ?? new TextDecoder().decode(response.body.subarray(0, SNIFF_BYTES));
  return looksLikeHtml(start);
}

export function parseHtmlPage(doc: PageDocument): void {
  const response = doc.response;
  if (!response) return;
  // A rendering fetcher may have parsed the live DOM already; parsing its HTML again gains nothing.
  const dom = doc.dom ?? parseHtmlDocument(responseText(response));
  doc.dom = dom;
  doc.root = dom.body;
  const metadata = extractMetadata({ dom, pageUrl: response.finalUrl || doc.job.url, headers: response.headers });
  Object.assign(doc.metadata, metadata);
}

export const htmlDocument = definePlugin({
  kind: 'document',
  name: 'html',
  description: 'HTML and XHTML pages (also HTML served as text/plain or untyped): DOM plus title, description, author, dates, language, image and favicon.',
  setup: () => ({
    detect: (doc: PageDocument) => doc.response !== null && isHtmlResponse(doc.response),
    parse: parseHtmlPage,
  }),
});
