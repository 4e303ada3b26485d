/**
 * The plain-text parser (runs in a content worker): the file decoded as text files are (shared/
 * decode.ts), then kept as written. Blocks are separated by blank lines; a block of prose becomes
 * a paragraph with its line breaks kept, a block laid out with spaces (indented code, aligned
 * columns, drawings) stays preformatted, so nothing the file says is reflowed or dropped.
 */
import { element, escapeHtml, note, textWithBreaks } from '../../../core/html-builder.ts';
import { decodeTextFile } from '../shared/decode.ts';
import type { DocumentParser } from '../shared/types.ts';

export interface TextParseOptions {
  /** Lines shown at most; a note gives the total. */
  maxLines: number;
  /** The response's Content-Type header (for its charset). */
  contentType?: string;
}

/** Indented, or holding a run of spaces between words: the spaces are part of what it says. */
const LAID_OUT = /^(?: {2,}|\t)\S|\S(?: {3,}|\t)\S/;

function blockHtml(lines: readonly string[]): string {
  const laidOut = lines.filter((line) => LAID_OUT.test(line)).length;
  if (laidOut * 2 >= lines.length) return element('pre', escapeHtml(lines.join('\n')));
  return element('p', textWithBreaks(lines.map((line) => line.trim()).join('\n')));
}

export const parse: DocumentParser<TextParseOptions> = async (bytes, options) => {
  const { text, charset } = decodeTextFile(bytes, options.contentType);
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').replace(/\s+$/, '').split('\n');
  const total = text.trim() ? lines.length : 0;
  const shown = lines.slice(0, options.maxLines);
  const parts: string[] = [];
  let block: string[] = [];
  for (const line of [...shown, '']) {
    if (line.trim()) block.push(line.replace(/\s+$/, ''));
    else if (block.length) {
      parts.push(blockHtml(block));
      block = [];
    }
  }
  const warnings: string[] = [];
  if (total > shown.length) {
    parts.push(note(`Showing the first ${shown.length} of ${total} lines.`));
    warnings.push(`Only ${shown.length} of ${total} lines are shown (plugins.document.text.maxLines)`);
  }
  if (total === 0) parts.push(note('This text file is empty.'));
  return { html: parts.join('\n'), warnings, metadata: { lineCount: total, charset } };
};
