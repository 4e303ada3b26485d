/**
 * The plain-text parser (runs in a content worker): the file decoded as text files are (shared/
 * decode.ts), then kept as written. A file that is markdown (a .md file, text/markdown, or plain
 * text that reads as markdown: headings, fences, links, lists — llms.txt and READMEs are served as
 * text/plain) is rendered by marked (GFM, line breaks kept), so the markdown format gives it back
 * as written rather than with every `#` and `*` escaped. Any other text goes block by block: blank
 * lines separate blocks; prose becomes a paragraph with its line breaks kept, a block laid out with
 * spaces (indented code, aligned columns, drawings) stays preformatted, so nothing the file says
 * is reflowed or dropped.
 */
import { marked } from 'marked';
import { element, escapeHtml, note, textWithBreaks } from '../../../core/kit.ts';
import { decodeTextFile } from '../shared/decode.ts';
import type { DocumentParser } from '../shared/types.ts';

export interface TextParseOptions {
  /** Lines shown at most; a note gives the total. */
  maxLines: number;
  /** The response's Content-Type header (for its charset). */
  contentType?: string;
  /** The file says it is markdown (its type or extension); else the text decides. */
  markdown?: boolean;
}

/** Lines read to decide whether plain text is markdown. */
const SNIFF_LINES = 200;
const SNIFF_CHARS = 300;
const MARKDOWN_SIGNS: Array<[kind: string, pattern: RegExp]> = [
  ['heading', /^#{1,6}\s+\S/],
  ['fence', /^\s{0,3}(?:```|~~~)/],
  ['link', /\[[^\]\n]+\]\((?:https?:\/\/|\/|\.\.?\/|#)[^)\s]*\)/],
  ['list', /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+\S/],
  ['quote', /^\s{0,3}>\s/],
];

/** Markdown when its first lines show a heading, a fence or a link, or two kinds of markdown. */
export function readsAsMarkdown(lines: readonly string[]): boolean {
  const kinds = new Set<string>();
  // The start of each line is enough, and keeps the patterns linear on hostile lines.
  for (const line of lines.slice(0, SNIFF_LINES))
    for (const [kind, pattern] of MARKDOWN_SIGNS) if (pattern.test(line.slice(0, SNIFF_CHARS))) kinds.add(kind);
  return kinds.has('heading') || kinds.has('fence') || kinds.has('link') || kinds.size >= 2;
}

/** Indented, or holding a run of spaces between words: the spaces are part of what it says. */
const LAID_OUT = /^(?: {2,}|\t)\S|\S(?: {3,}|\t)\S/;

function blockHtml(lines: readonly string[]): string {
  const laidOut = lines.filter((line) => LAID_OUT.test(line)).length;
  if (laidOut * 2 >= lines.length) return element('pre', escapeHtml(lines.join('\n')));
  return element('p', textWithBreaks(lines.map((line) => line.trim()).join('\n')));
}

/** The text of the first level-one heading (`# Title`, closing #s dropped), the markdown file's title. */
function firstHeading(lines: readonly string[]): string | undefined {
  const line = lines.find((l) => l.startsWith('# ') || l.startsWith('#\t'));
  const title = line?.slice(2).trim().replace(/#+$/, '').trim();
  return title || undefined;
}

/** Plain text, block by block (the file comment). */
function plainBlocks(lines: readonly string[]): string[] {
  const parts: string[] = [];
  let block: string[] = [];
  for (const line of [...lines, '']) {
    if (line.trim()) block.push(line.trimEnd());
    else if (block.length) {
      parts.push(blockHtml(block));
      block = [];
    }
  }
  return parts;
}

export const parse: DocumentParser<TextParseOptions> = async (bytes, options) => {
  const { text, charset } = decodeTextFile(bytes, options.contentType);
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .trimEnd()
    .split('\n');
  const total = text.trim() ? lines.length : 0;
  const shown = lines.slice(0, options.maxLines);
  const markdown = total > 0 && (options.markdown === true || readsAsMarkdown(shown));
  const parts = markdown ? [marked.parse(shown.join('\n'), { gfm: true, breaks: true, async: false })] : plainBlocks(shown);
  const warnings: string[] = [];
  if (total > shown.length) {
    parts.push(note(`Showing the first ${shown.length} of ${total} lines.`));
    warnings.push(`Only ${shown.length} of ${total} lines are shown (plugins.document.text.maxLines)`);
  }
  if (total === 0) parts.push(note('This text file is empty.'));
  const title = markdown ? firstHeading(shown) : undefined;
  return {
    html: parts.join('\n'),
    warnings,
    metadata: { lineCount: total, charset, markup: markdown ? 'markdown' : 'plain', ...(title ? { title } : {}) },
  };
};
