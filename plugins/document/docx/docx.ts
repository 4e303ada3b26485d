/**
 * DOCX documents: headings, lists, bold/italic, links, tables (first row as header) and
 * footnotes, with title, author, description, created date and language from the document
 * properties. A zip bomb or a file that is not really a Word document is refused with a 422.
 */
import { z } from 'zod';
import { defineDocumentPlugin } from '../shared/plugin.ts';
import { docxApi } from '../shared/openapi.ts';
import { baseLimits, MiB, zipLimits } from '../shared/limits.ts';

export const docxDocument = defineDocumentPlugin({
  name: 'docx',
  label: 'DOCX',
  description: 'Word documents (.docx): headings, lists, emphasis, links, tables and footnotes; title, author, created date and language.',
  kind: {
    mediaTypes: [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-word.document.macroenabled.12',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
    ],
    extensions: ['docx', 'docm', 'dotx'],
    magic: ['docx', 'docm', 'dotx', 'dotm'],
    containers: ['zip', 'cfb'],
  },
  options: z.strictObject({
    ...baseLimits({ maxBytes: 25 * MiB }),
    ...zipLimits({ maxEntries: 2000, maxDecompressedBytes: 100 * MiB, maxCompressionRatio: 500 }),
    maxDocumentXmlBytes: z
      .number()
      .int()
      .min(1)
      .default(10 * MiB)
      .describe('Largest document body (word/document.xml) read; the converter needs about 100 times it in memory.'),
  }),
  parserUrl: new URL('./parse.ts', import.meta.url).href,
  api: docxApi,
});
