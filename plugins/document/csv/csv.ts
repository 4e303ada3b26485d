/**
 * CSV and TSV files: encoding and delimiter sniffed, quoted fields (with newlines) handled, the
 * header row and records as one table, cut at a row cap with a note saying so.
 */
import { z } from 'zod';
import { defineDocumentPlugin } from '../shared/plugin.ts';
import { csvApi } from '../shared/openapi.ts';
import { responseFileName } from '../shared/detect.ts';
import { baseLimits, maxColumnsOption, MiB } from '../shared/limits.ts';

const TSV_TYPES = new Set(['text/tab-separated-values']);

export const csvDocument = defineDocumentPlugin({
  name: 'csv',
  label: 'CSV',
  description:
    'CSV and TSV files: one table with the first record as header row; delimiter and encoding sniffed; row_count and column_count.',
  kind: {
    mediaTypes: [
      'text/csv',
      'application/csv',
      'text/x-csv',
      'text/comma-separated-values',
      'text/x-comma-separated-values',
      'text/tab-separated-values',
    ],
    extensions: ['csv', 'tsv', 'tab'],
    magic: [],
  },
  options: z.strictObject({
    ...baseLimits({ maxBytes: 25 * MiB }),
    maxRows: z.number().int().min(1).max(500_000).default(10_000).describe('Data rows shown at most; a note gives the total.'),
    maxCells: z
      .number()
      .int()
      .min(1)
      .max(10_000_000)
      .default(250_000)
      .describe('Cells shown at most (wide files reach this before maxRows).'),
    maxColumns: maxColumnsOption(256),
  }),
  parserUrl: new URL('./parse.ts', import.meta.url).href,
  api: csvApi,
  context: (doc) => ({
    contentType: doc.response?.headers['content-type'],
    tabular: TSV_TYPES.has(doc.response?.mediaType ?? '') || /\.(tsv|tab)$/i.test(responseFileName(doc) ?? ''),
  }),
});
