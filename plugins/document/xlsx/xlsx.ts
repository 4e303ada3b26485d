/**
 * XLSX workbooks: every sheet a `## <sheet name>` section with a table (cached formula values,
 * ISO dates, merged cells, empty edges trimmed) under caps on sheets, rows and cells; title,
 * author and created date from the workbook properties. Zip bombs are refused with a 422.
 */
import { z } from 'zod';
import { defineDocumentPlugin } from '../shared/plugin.ts';
import { xlsxApi } from '../shared/openapi.ts';
import { baseLimits, maxColumnsOption, MiB, zipLimits } from '../shared/limits.ts';

export const xlsxDocument = defineDocumentPlugin({
  name: 'xlsx',
  label: 'XLSX',
  description:
    'Excel workbooks (.xlsx): one "## <sheet>" section with a table per sheet; cached formula results, ISO dates; title, author, created date.',
  kind: {
    mediaTypes: [
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-excel.sheet.macroenabled.12',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
    ],
    extensions: ['xlsx', 'xlsm', 'xltx'],
    magic: ['xlsx', 'xlsm', 'xltx', 'xltm'],
    containers: ['zip', 'cfb'],
  },
  options: z.strictObject({
    ...baseLimits({ maxBytes: 25 * MiB }),
    ...zipLimits({ maxEntries: 5000, maxDecompressedBytes: 200 * MiB, maxCompressionRatio: 500 }),
    maxSheets: z.number().int().min(1).max(1000).default(20).describe('Sheets shown at most; the rest are listed as left out.'),
    maxRows: z
      .number()
      .int()
      .min(1)
      .max(500_000)
      .default(5000)
      .describe('Non-empty rows shown per sheet; a note says when a sheet was cut.'),
    maxCells: z
      .number()
      .int()
      .min(1)
      .max(10_000_000)
      .default(200_000)
      .describe('Cells shown in the whole workbook, empty ones between used cells included.'),
    maxColumns: maxColumnsOption(256),
    includeHiddenSheets: z.boolean().default(false).describe('Also show sheets hidden in Excel.'),
  }),
  parserUrl: new URL('./parse.ts', import.meta.url).href,
  api: xlsxApi,
});
