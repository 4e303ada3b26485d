/**
 * PDF documents: text in reading order with headings, paragraphs, lists and tables rebuilt,
 * optional page markers, and title, author, created date and page count as metadata. Parsing
 * runs in a worker under size, page, decompression and time limits; encrypted, corrupt and
 * truncated files are refused with a 422 that says which.
 */
import { z } from 'zod';
import { defineDocumentPlugin } from '../shared/plugin.ts';
import { pdfApi } from '../shared/openapi.ts';
import { baseLimits, MiB } from '../shared/limits.ts';

export const pdfDocument = defineDocumentPlugin({
  name: 'pdf',
  label: 'PDF',
  description: 'PDF files: headings, paragraphs, lists and tables in reading order; title, author, created date and page_count.',
  kind: { mediaTypes: ['application/pdf', 'application/x-pdf'], extensions: ['pdf'], magic: ['pdf'] },
  options: z.strictObject({
    ...baseLimits({ maxBytes: 50 * MiB }),
    maxPages: z.number().int().min(1).max(100_000).default(500).describe('Pages read at most; the rest are left out with a note.'),
    maxDecompressedBytes: z
      .number()
      .int()
      .min(1)
      .default(256 * MiB)
      .describe('Budget for what the compressed (non-image) streams may expand to.'),
    pageMarkers: z.boolean().default(false).describe('Put a "Page N of M" line at the start of every page.'),
  }),
  parserUrl: new URL('./parse.ts', import.meta.url).href,
  api: pdfApi,
});
