/**
 * Parsing an HTML page into the DOM and content root the transforms start from, once. The parse
 * builds the tree a browser builds (core/dom.ts), so every page, valid or damaged, has its
 * content in `<body>`: the body is the content root. The parse is held to the depth limit
 * (limits.ts) and settled (settle.ts); the caller has already cut the markup to the element limit.
 */
import { parseHtmlPage } from '../../../core/kit.ts';
import { settleParsedPage } from './settle.ts';
import { flattenDeeperThan, type ParseLimits } from './limits.ts';

export interface ParsedPage {
  /** The page as parsed: what metadata, links and raw HTML read. */
  dom: Document;
  /** Where the content is: the body. */
  root: Element;
  /** Subtrees below the depth limit that were replaced by their text. */
  flattened: number;
  /** Set when the markup built more elements than the tree may hold: the parse stopped at this many. */
  cutAt: number | null;
}

/**
 * Elements the tree may hold: the markup is already cut to `maxElements` start tags, and elements
 * the parser implies (html, head, body, tbody, formatting elements reopened in each paragraph)
 * rarely double that; only markup built to multiply them goes past (limits.ts).
 */
const treeLimit = (limits: ParseLimits): number => 2 * limits.maxElements;

/** Parses `html` (already cut to the element limit) within the tree and depth limits. */
export function parsePage(html: string, limits: ParseLimits): ParsedPage {
  const { dom, complete, limit } = parseHtmlPage(html, { maxElements: treeLimit(limits) });
  const flattened = flattenDeeperThan(dom, limits.maxDepth);
  settleParsedPage(dom, html);
  return { dom, root: dom.body, flattened, cutAt: complete ? null : limit };
}
