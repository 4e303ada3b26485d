/**
 * The content root as markdown, shared by the markdown, json and llm formats: turndown with GFM
 * tables, strikethrough and task lists, ATX headings, fenced code and `-` bullets, then tidied.
 * The element is converted in place (see inPlace). Hostile nesting is flattened first (depth.ts),
 * and a root whose own tag is markup gets a wrapper.
 */
import TurndownService from 'turndown';
import { dataKey } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { contentRules } from './rules.ts';
import { tableRules } from './tables.ts';
import { tidyMarkdown } from './tidy.ts';
import { limitDepth } from './depth.ts';
import { fastRuleLookup } from './rule-lookup.ts';
import { turndownInPlace } from './convert.ts';

export function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    fence: '```',
    hr: '---',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
  });
  contentRules(service);
  tableRules(service);
  fastRuleLookup(service);
  return service;
}

/** Elements whose own tag carries no markdown (a lone table cell included): converting only their children loses nothing. */
const PLAIN_CONTAINERS = new Set([
  'BODY',
  'DIV',
  'MAIN',
  'ARTICLE',
  'SECTION',
  'ASIDE',
  'HEADER',
  'FOOTER',
  'NAV',
  'SPAN',
  'FORM',
  'P',
  'CENTER',
  'FONT',
  'TD',
  'TH',
]);
/** Rows render only inside the table that assembles them (tables.ts). */
const ROW_PARTS = new Set(['TR', 'THEAD', 'TBODY', 'TFOOT']);

/**
 * turndown converts the children of the element it is given, never the element itself, so a
 * content root that is a table, row, list, quote, code block, heading or link (main-content
 * extraction returns such roots) would lose its own markup, a table every cell. Such a root is
 * converted inside a wrapper; rows inside a table inside the wrapper.
 */
export function convertibleRoot(root: Element): Element {
  if (PLAIN_CONTAINERS.has(root.tagName)) return root;
  const document = root.ownerDocument;
  const wrapper = document.createElement('div');
  const parent = ROW_PARTS.has(root.tagName) ? wrapper.appendChild(document.createElement('table')) : wrapper;
  parent.appendChild(root.cloneNode(true));
  return wrapper;
}

/**
 * turndown starts by deep-copying the element it is given, and on linkedom that copy (a new node,
 * token list and listener map per element) is a fifth to two fifths of the conversion. The element
 * is converted in place instead (convert.ts runs turndown's steps on it); the only changes are
 * whitespace collapsed outside `<pre>` and a few cached facts per node, which no other format reads
 * (text and links collapse whitespace themselves).
 */
export function elementToMarkdown(service: TurndownService, root: Element): string {
  return tidyMarkdown(turndownInPlace(service, limitDepth(convertibleRoot(root))));
}

const MARKDOWN_KEY = dataKey<{ root: Element; markdown: string }>('format.markdown');

/**
 * The content's markdown, converted once per document: the markdown, json and llm formats all
 * start from it, and turndown is the costliest step of rendering (seconds on a 10 MB page).
 * Keyed to the root it was made from, so a changed root is converted afresh.
 */
export function contentMarkdown(doc: PageDocument, service: TurndownService): string {
  if (!doc.root) return '';
  const cached = doc.data.get(MARKDOWN_KEY);
  if (cached?.root === doc.root) return cached.markdown;
  const markdown = elementToMarkdown(service, doc.root);
  doc.data.set(MARKDOWN_KEY, { root: doc.root, markdown });
  return markdown;
}

/**
 * The page as a language model reads it: a `URL:`/`Title:` header, a blank line, the content's
 * markdown (the shape the LLM features split and answer from).
 */
export function pageTextForModel(doc: PageDocument, service: TurndownService): string {
  const title = doc.metadata.title ? `\nTitle: ${doc.metadata.title}` : '';
  return `URL: ${doc.baseUrl}${title}\n\n${contentMarkdown(doc, service)}`;
}
