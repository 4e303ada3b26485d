/**
 * HTML document plugin: recognises HTML and XHTML responses (and HTML served as text/plain or
 * with no type, by sniffing), parses them into `doc.dom` as a browser does, with the body as the
 * content root (parse.ts), and fills the page metadata. Metadata is read here, before any
 * transform strips `<script>` (JSON-LD) or narrows the content. A binary body served as HTML is a 422 (binary.ts). Pages past the
 * element or depth limit are read up to it, with a warning (limits.ts).
 */
import { z } from 'zod';
import { definePlugin, responseText, SCHEMA_TYPES, SERVED_HTML, TrawlError } from '../../../core/kit.ts';
import type { FetchedResponse, PageDocument } from '../../../core/kit.ts';
import { parsePage } from './parse.ts';
import { readPage } from './metadata.ts';
import { looksLikeHtml } from './sniff.ts';
import { binaryBody } from './binary.ts';
import { elementCutOffset, type ParseLimits } from './limits.ts';

const PLUGIN_ID = 'document.html';

/**
 * Both far above real pages: the largest dev-set page has ~20,000 elements and a dense 10 MB article
 * ~200,000; Chrome's parser stops nesting at 512. Past them the cost grows for no content: a 20 MB
 * page of 2.5 million paragraphs took 23 s and 3.4 GB whole, 2.5 s and 0.6 GB cut at 300,000; one
 * `:has()` query on a 5,000-deep chain takes 7 s, on a 1,000-deep one 0.1 s.
 */
const options = z.strictObject({
  maxElements: z
    .number()
    .int()
    .min(1000)
    .default(300_000)
    .describe(
      'Elements read at most; a page with more is cut there, with a warning. The parsed tree holds at most twice as many (markup can make the parser reopen elements).',
    ),
  maxDepth: z
    .number()
    .int()
    .min(32)
    .default(1000)
    .describe('Nesting depth kept; deeper elements are replaced by their text, with a warning.'),
});
export const DEFAULT_PARSE_LIMITS: ParseLimits = options.parse({});

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

export function parseHtmlPage(doc: PageDocument, limits: ParseLimits = DEFAULT_PARSE_LIMITS): void {
  const response = doc.response;
  if (!response) return;
  // A source may have built its own page (the video page): that markup, not the body, is the page.
  const { dom, root, flattened, cutAt } = parsePage(
    boundedText(doc, response.builtHtml ?? responseText(response), limits.maxElements),
    limits,
  );
  if (cutAt !== null)
    doc.warn(
      'document',
      PLUGIN_ID,
      `The page's markup makes the parser build more than ${cutAt} elements (it reopens unclosed formatting elements); only the first ${cutAt} are read`,
    );
  if (flattened)
    doc.warn('document', PLUGIN_ID, `The page nests elements more than ${limits.maxDepth} deep; what is deeper is kept as plain text`);
  doc.dom = dom;
  doc.root = root;
  const { metadata, schemaTypes } = readPage({ dom, pageUrl: response.finalUrl || doc.job.url, headers: response.headers });
  Object.assign(doc.metadata, metadata);
  doc.data.set(SCHEMA_TYPES, schemaTypes);
}

/** The page's markup, cut before the first element over the limit (before parsing: the tree is what costs memory). */
function boundedText(doc: PageDocument, markup: string, maxElements: number): string {
  let text = markup;
  const cut = elementCutOffset(text, maxElements);
  if (cut !== null) {
    text = text.slice(0, cut);
    doc.warn('document', PLUGIN_ID, `The page has more than ${maxElements} elements; only the first ${maxElements} are read`);
  }
  doc.data.set(SERVED_HTML, text);
  return text;
}

/**
 * A binary body behind an HTML type is refused here rather than left undetected: the pipeline's
 * "unsupported content type: text/html" would blame the header, not the body. Document plugins
 * that recognise such bodies by their magic bytes (PDF) are listed before this one.
 */
async function parseCheckedHtml(doc: PageDocument, limits: ParseLimits): Promise<void> {
  const binary = await binaryBody(doc);
  if (binary !== null) {
    const kind = binary ? `binary (${binary.toUpperCase()})` : 'binary';
    throw new TrawlError('unsupported_content', `Unsupported content: the body is ${kind}, not ${doc.response!.mediaType || 'HTML'}`);
  }
  parseHtmlPage(doc, limits);
}

export const htmlDocument = definePlugin({
  kind: 'document',
  name: 'html',
  description:
    'HTML and XHTML pages (also HTML served as text/plain or untyped): DOM plus title, description, author, dates, language, image and favicon.',
  options,
  setup: (limits) => ({
    detect: (doc: PageDocument) => doc.response !== null && isHtmlResponse(doc.response),
    parse: (doc: PageDocument) => parseCheckedHtml(doc, limits),
  }),
});
