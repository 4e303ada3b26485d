/**
 * Plain-text and markdown files (text/plain, text/markdown, `.txt`, `.md`): notes, licences, RFCs,
 * READMEs, llms.txt. Decoded like any text file; markdown read as markdown, other text kept line
 * by line (parse.ts); cut at a line cap with a note saying so. Listed after the HTML type, so a CSV or a PDF served as
 * text/plain is still read as what its bytes or its extension say.
 */
import { z } from 'zod';
import { defineDocumentPlugin } from '../shared/plugin.ts';
import { textApi } from '../shared/openapi.ts';
import { baseLimits, MiB } from '../shared/limits.ts';
import { responseFileName } from '../shared/detect.ts';

const MARKDOWN_TYPES = ['text/markdown', 'text/x-markdown'];
const MARKDOWN_EXTENSIONS = ['md', 'markdown'];
const MARKDOWN_FILE = /\.(?:md|markdown)$/i;

export const textDocument = defineDocumentPlugin({
  name: 'text',
  label: 'text file',
  description:
    'Plain-text and markdown files: markdown read as markdown; other text as paragraphs with their line breaks kept, laid-out blocks (indented, aligned columns) preformatted; line_count, charset and markup.',
  kind: { mediaTypes: ['text/plain', ...MARKDOWN_TYPES], extensions: ['txt', 'text', ...MARKDOWN_EXTENSIONS], magic: [] },
  options: z.strictObject({
    ...baseLimits({ maxBytes: 10 * MiB }),
    maxLines: z.number().int().min(1).max(5_000_000).default(200_000).describe('Lines shown at most; a note gives the total.'),
  }),
  parserUrl: new URL('./parse.ts', import.meta.url).href,
  api: textApi,
  context: (doc) => ({
    contentType: doc.response?.headers['content-type'],
    markdown: MARKDOWN_TYPES.includes(doc.response?.mediaType ?? '') || MARKDOWN_FILE.test(responseFileName(doc) ?? ''),
  }),
});
