/**
 * The CSV parser (runs in the document worker): encoding and delimiter sniffed, then papaparse
 * (quoted fields, embedded newlines and delimiters) streams the records; the first becomes the
 * header row of one table. Only the rows under the cap are kept; the rest are counted, and a note
 * says how many were left out.
 */
import Papa from 'papaparse';
import type { DocumentParser } from '../shared/types.ts';
import { htmlTable, note, textWithBreaks } from '../../../core/html-builder.ts';
import { decodeCsv, sniffDelimiter } from './sniff.ts';

export interface CsvParseOptions {
  maxRows: number;
  maxCells: number;
  /** The response's Content-Type header (for its charset). */
  contentType?: string;
  /** True for `.tsv` files and `text/tab-separated-values`: a tab wins a tie. */
  tabular?: boolean;
}

export const parse: DocumentParser<CsvParseOptions> = async (bytes, options) => {
  const { text, charset } = decodeCsv(bytes, options.contentType);
  const delimiter = sniffDelimiter(text, options.tabular ? '\t' : undefined);
  const rows: string[][] = [];
  let width = 0;
  let total = 0;
  let unterminated = false;
  let limit = options.maxRows + 1;
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    delimiter,
    // papaparse's own 'greedy' skipping costs four times the parse in step mode; this is the same rule.
    skipEmptyLines: true,
    step(result) {
      if (result.errors.some((e) => e.code === 'MissingQuotes')) unterminated = true;
      if (result.data.every((cell) => !cell.trim())) return;
      total++;
      if (rows.length >= limit) return;
      rows.push(result.data);
      width = Math.max(width, result.data.length);
      // Wide files reach the cell cap before the row cap.
      limit = Math.min(options.maxRows + 1, Math.max(2, Math.floor(options.maxCells / width)));
    },
  });
  const warnings: string[] = [];
  const parts = [htmlTable(rows.map((row) => row.map((cell) => textWithBreaks(cell.trim()))))];
  const dataRows = Math.max(0, total - 1);
  const shown = Math.max(0, rows.length - 1);
  if (shown < dataRows) {
    parts.push(note(`Showing the first ${shown} of ${dataRows} rows.`));
    warnings.push(`Only ${shown} of ${dataRows} rows are shown (plugins.document.csv.maxRows / maxCells)`);
  }
  if (unterminated) warnings.push('A quoted field is never closed; the rest of the file was read as part of it');
  if (rows.length === 0) parts.splice(0, parts.length, note('This CSV file is empty.'));
  return {
    html: parts.join('\n'),
    warnings,
    metadata: { row_count: dataRows, column_count: width, delimiter: delimiter === '\t' ? 'tab' : delimiter, charset },
  };
};
