/**
 * Plain-text files (text/plain, `.txt`): notes, licences, RFCs, llms.txt. Decoded like any text
 * file, kept line by line (paragraphs with their line breaks, laid-out blocks preformatted), cut at
 * a line cap with a note saying so. Listed after the HTML type, so a CSV or a PDF served as
 * text/plain is still read as what its bytes or its extension say.
 */
import { z } from 'zod';
import { defineDocumentPlugin } from '../shared/plugin.ts';
import { textApi } from '../shared/openapi.ts';
import { baseLimits, MiB } from '../shared/limits.ts';

export const textDocument = defineDocumentPlugin({
  name: 'text',
  label: 'text file',
  description: 'Plain-text files: paragraphs with their line breaks kept, laid-out blocks (indented, aligned columns) preformatted; line_count and charset.',
  kind: { mediaTypes: ['text/plain'], extensions: ['txt', 'text'], magic: [] },
  options: z.strictObject({
    ...baseLimits({ maxBytes: 10 * MiB }),
    maxLines: z.number().int().min(1).max(5_000_000).default(200_000).describe('Lines shown at most; a note gives the total.'),
  }),
  parserUrl: new URL('./parse.ts', import.meta.url).href,
  api: textApi,
  context: (doc) => ({ contentType: doc.response?.headers['content-type'] }),
});
