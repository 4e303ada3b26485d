/**
 * The CSV parser (runs in a content worker): encoding and delimiter sniffed, then papaparse
 * (quoted fields, embedded newlines and delimiters) streams the records; the first becomes the
 * header row of one table. Only the rows and columns under the caps are kept; the rest are
 * counted, and a note says how many were left out.
 */
import Papa from 'papaparse';
import type { DocumentParser } from '../shared/types.ts';
import { htmlTable, note, textWithBreaks } from '../../../core/kit.ts';
import { decodeTextFile } from '../shared/decode.ts';
import { sniffDelimiter } from './sniff.ts';

export interface CsvParseOptions {
  maxRows: number;
  maxCells: number;
  maxColumns: number;
  /** The response's Content-Type header (for its charset). */
  contentType?: string;
  /** True for `.tsv` files and `text/tab-separated-values`: a tab wins a tie. */
  tabular?: boolean;
}

export const parse: DocumentParser<CsvParseOptions> = async (bytes, options) => {
  const { text, charset } = decodeTextFile(bytes, options.contentType);
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
      width = Math.max(width, result.data.length);
      if (rows.length >= limit) return;
      rows.push(result.data.length > options.maxColumns ? result.data.slice(0, options.maxColumns) : result.data);
      // Wide files reach the cell cap before the row cap; the header row always fits.
      const shownWidth = Math.min(width, options.maxColumns);
      limit = Math.min(options.maxRows + 1, Math.max(1, Math.floor(options.maxCells / shownWidth)));
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
  if (width > options.maxColumns) {
    parts.push(note(`Showing the first ${options.maxColumns} of ${width} columns.`));
    warnings.push(`Only ${options.maxColumns} of ${width} columns are shown (plugins.document.csv.maxColumns)`);
  }
  if (unterminated) warnings.push('A quoted field is never closed; the rest of the file was read as part of it');
  if (rows.length === 0) parts.splice(0, parts.length, note('This CSV file is empty.'));
  return {
    html: parts.join('\n'),
    warnings,
    metadata: { rowCount: dataRows, columnCount: width, delimiter: delimiter === '\t' ? 'tab' : delimiter, charset },
  };
};
