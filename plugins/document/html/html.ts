/**
 * HTML document plugin: recognises HTML and XHTML responses (and HTML served as text/plain or
 * with no type, by sniffing), parses them into `doc.dom` with the body as the content root
 * (parse.ts: the one place linkedom's misplaced bodies are mended), and fills the page metadata. Metadata is read here, before any transform strips `<script>` (JSON-LD)
 * or narrows the content. A binary body served as HTML is a 422 (binary.ts).
 */
import { definePlugin } from '../../../core/plugin.ts';
import { parsePage } from './parse.ts';
import type { FetchedResponse, PageDocument } from '../../../core/document.ts';
import { extractMetadata } from './metadata.ts';
import { responseText } from '../../../core/response-text.ts';
import { looksLikeHtml } from './sniff.ts';
import { binaryBody } from './binary.ts';
import { TrawlError } from '../../../core/errors.ts';

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
  // A source may have built its own page (the video page): that markup, not the body, is the page.
  const { dom, root } = parsePage(response.builtHtml ?? responseText(response));
  doc.dom = dom;
  doc.root = root;
  const metadata = extractMetadata({ dom, pageUrl: response.finalUrl || doc.job.url, headers: response.headers });
  Object.assign(doc.metadata, metadata);
}

/**
 * A binary body behind an HTML type is refused here rather than left undetected: the pipeline's
 * "unsupported content type: text/html" would blame the header, not the body. Document plugins
 * that recognise such bodies by their magic bytes (PDF) are listed before this one.
 */
async function parseCheckedHtml(doc: PageDocument): Promise<void> {
  const binary = await binaryBody(doc);
  if (binary !== null) {
    const kind = binary ? `binary (${binary.toUpperCase()})` : 'binary';
    throw new TrawlError('unsupported_content', `Unsupported content: the body is ${kind}, not ${doc.response!.mediaType || 'HTML'}`);
  }
  parseHtmlPage(doc);
}

export const htmlDocument = definePlugin({
  kind: 'document',
  name: 'html',
  description: 'HTML and XHTML pages (also HTML served as text/plain or untyped): DOM plus title, description, author, dates, language, image and favicon.',
  setup: () => ({
    detect: (doc: PageDocument) => doc.response !== null && isHtmlResponse(doc.response),
    parse: parseCheckedHtml,
  }),
});
