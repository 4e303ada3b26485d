/**
 * The XLSX parser (runs in a content worker): the zip guard first, then exceljs's streaming
 * reader, which stops reading a sheet at the row cap instead of loading the whole workbook (a
 * full load of 500k cells took 4.2 s and 475 MB here; streaming to a 5,000-row cap, 0.9 s and
 * 130 MB). The reader walks entries in file order and, when writers put the workbook part last
 * (exceljs itself does), intermittently parses sheets before it knows the workbook (exceljs
 * issue #3064) and spools them to temporary files; so it is given the checked archive rewritten
 * with the workbook parts first and the sheets in tab order. Each sheet becomes a
 * `## <sheet name>` section with a table: empty rows dropped, empty leading and trailing columns
 * trimmed, a merged range's value in its top-left cell.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { DocumentRefusal, type DocumentParser } from '../shared/types.ts';
import { ZipArchive, type ZipLimits } from '../shared/zip.ts';
import { coreProperties } from '../shared/ooxml.ts';
import { heading, htmlTable, note } from '../../../core/kit.ts';
import { cellHtml } from './cells.ts';
import { entryRank, readSheets } from './workbook.ts';

export interface XlsxParseOptions extends ZipLimits {
  maxSheets: number;
  maxRows: number;
  maxCells: number;
  maxColumns: number;
  includeHiddenSheets: boolean;
}

/** What the stream reader's sheets carry at run time beyond their typings: the N of `sheetN.xml`. */
type SheetReader = ExcelJS.stream.xlsx.WorksheetReader & { id: number };

interface Sheet {
  name: string;
  /** Row number → column number → cell HTML, non-empty cells only. */
  rows: Map<number, Map<number, string>>;
  truncated: boolean;
}

/** How many table cells the rendered workbook may still hold: used cells are few, the grid between them may not be. */
interface CellBudget {
  remaining: number;
}

/**
 * The sheet as one table spanning its used columns, at most `maxColumns` wide, with rows cut where
 * the workbook's cell budget runs out (the header row always shows). Notes and warnings say what was cut.
 */
function sheetTable(sheet: Sheet, options: XlsxParseOptions, budget: CellBudget, warnings: string[]): string[] {
  const rows = [...sheet.rows.values()];
  if (rows.length === 0) return [note('This sheet is empty.')];
  let first = Infinity;
  let last = -Infinity;
  for (const row of rows) {
    for (const column of row.keys()) {
      first = Math.min(first, column);
      last = Math.max(last, column);
    }
  }
  const span = last - first + 1;
  const width = Math.min(span, options.maxColumns);
  const fitting = Math.max(1, Math.floor(budget.remaining / width));
  if (rows.length > fitting) {
    rows.length = fitting;
    sheet.truncated = true;
  }
  budget.remaining -= rows.length * width;
  const parts = [htmlTable(rows.map((r) => Array.from({ length: width }, (_, i) => r.get(first + i) ?? '')))];
  if (span > width) {
    parts.push(note(`Only the first ${width} of ${span} columns of this sheet are shown.`));
    warnings.push(`Sheet "${sheet.name}" is ${span} columns wide; the first ${width} are shown (plugins.document.xlsx.maxColumns)`);
  }
  if (sheet.truncated) {
    parts.push(note(`Only the first ${rows.length} rows of this sheet are shown (row or cell limit).`));
    warnings.push(`Sheet "${sheet.name}" was cut at ${rows.length} rows (plugins.document.xlsx.maxRows / maxCells)`);
  }
  return parts;
}

const plural = (n: number) => (n === 1 ? '1 sheet' : `${n} sheets`);

export const parse: DocumentParser<XlsxParseOptions> = async (bytes, options) => {
  const archive = ZipArchive.open(bytes, options);
  if (!archive.has('xl/workbook.xml')) throw new DocumentRefusal('it is not an Excel workbook (xl/workbook.xml is missing)');
  const infos = readSheets(archive);
  if (infos.length === 0) throw new DocumentRefusal('the workbook has no worksheets');
  const byPath = new Map(infos.map((s) => [s.path, s]));
  const wanted = new Set(
    infos
      .filter((s) => options.includeHiddenSheets || !s.hidden)
      .slice(0, options.maxSheets)
      .map((s) => s.path),
  );
  const input = Readable.from([Buffer.from(archive.reordered(entryRank(infos)))]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const sheets: Sheet[] = [];
  let cells = 0;
  let cellsSpent = false;
  for await (const worksheet of reader as AsyncIterable<SheetReader>) {
    const info = byPath.get(`xl/worksheets/sheet${worksheet.id}.xml`);
    if (!info || !wanted.has(info.path) || cellsSpent) {
      // Leaving the iterator lets the reader move past the sheet without reading its rows.
      for await (const _ of worksheet) break;
      continue;
    }
    const sheet: Sheet = { name: info.name, rows: new Map(), truncated: false };
    sheets.push(sheet);
    for await (const row of worksheet) {
      const values = new Map<number, string>();
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        // The other cells of a merged range repeat nothing: the value sits in the top-left one.
        if (cell.type === ExcelJS.ValueType.Merge) return;
        const html = cellHtml(cell.value).trim();
        if (html) values.set(column, html);
      });
      if (values.size === 0) continue;
      cellsSpent = cells + values.size > options.maxCells;
      if (sheet.rows.size >= options.maxRows || cellsSpent) {
        sheet.truncated = true;
        break;
      }
      sheet.rows.set(row.number, values);
      cells += values.size;
    }
  }
  const warnings: string[] = [];
  const parts: string[] = [];
  const budget: CellBudget = { remaining: options.maxCells };
  for (const sheet of sheets) parts.push(heading(2, sheet.name), ...sheetTable(sheet, options, budget, warnings));
  const hidden = options.includeHiddenSheets ? 0 : infos.filter((s) => s.hidden).length;
  if (hidden > 0) parts.push(note(`${plural(hidden)} hidden in the workbook ${hidden === 1 ? 'is' : 'are'} not shown.`));
  const capped = infos.length - sheets.length - hidden;
  if (capped > 0) {
    parts.push(note(`${plural(capped)} more ${capped === 1 ? 'is' : 'are'} not shown (sheet or cell limit).`));
    warnings.push(`${plural(capped)} of ${infos.length} left out (plugins.document.xlsx.maxSheets / maxCells)`);
  }
  return { html: parts.join('\n'), warnings, metadata: { ...coreProperties(archive), sheetCount: infos.length } };
};
