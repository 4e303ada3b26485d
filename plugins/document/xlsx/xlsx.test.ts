// The XLSX parser on real workbooks written with exceljs: sheet sections, cell values (formula
// results, ISO dates and times, merged ranges, rich text, errors), trimming, hidden sheets, the
// sheet/row/cell caps, properties, and zip-level refusals.
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { parse, type XlsxParseOptions } from './parse.ts';
import { cellHtml, formatNumber, isoCellDate } from './cells.ts';
import { budgetXlsx, ledgerXlsx } from './fixtures/samples.ts';
import { readZip, writeZip } from '../shared/fixtures/zip-writer.ts';
import type { ParsedDocument } from '../shared/types.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const options: XlsxParseOptions = {
  maxEntries: 100,
  maxDecompressedBytes: 50 * 1024 * 1024,
  maxCompressionRatio: 500,
  maxSheets: 20,
  maxRows: 5000,
  maxCells: 200_000,
  maxColumns: 256,
  includeHiddenSheets: false,
};
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: Error) => `${err.name}: ${err.message}`,
  );

describe('a budget workbook', () => {
  let budget: Uint8Array;
  let parsed: ParsedDocument;
  beforeAll(async () => {
    budget = await budgetXlsx();
    parsed = await parse(budget, options);
  });

  test('each visible sheet is a section with its table; leading empty rows and columns are trimmed', () => {
    expect(parsed.html).toStartWith('<h2>Q1 Sales</h2>\n<table><thead><tr><th>Region</th><th>Amount</th><th>Date</th></tr></thead>');
    expect(parsed.html).toContain(
      '<h2>Notes</h2>\n<table><thead><tr><th>Topic</th><th>Note</th></tr></thead><tbody><tr><td>Fuel</td><td>Prices rose in March,<br>then fell</td></tr></tbody></table>',
    );
    expect(parsed.html).toContain('<h2>Empty</h2>\n<p><em>This sheet is empty.</em></p>');
  });

  test('cell values: numbers, ISO dates and times, cached formula results, merged ranges, rich text, booleans, errors', () => {
    expect(parsed.html).toContain('<tr><td>North</td><td>10.5</td><td>2024-03-01</td></tr>');
    expect(parsed.html).toContain('<tr><td>South</td><td>0.3</td><td>2024-03-02T14:30:00Z</td></tr>');
    expect(parsed.html).toContain('<tr><td>Total</td><td>10.8</td><td>=NOW()</td></tr>');
    expect(parsed.html).toContain('<tr><td>Figures are provisional</td><td></td><td></td></tr>');
    expect(parsed.html).toContain('<tr><td>Checked by <strong>Morag</strong></td><td>TRUE</td><td>#DIV/0!</td></tr>');
    expect(parsed.html).toContain('<tr><td>Opening</td><td></td><td>09:15:00</td></tr>');
  });

  test('hidden sheets are left out with a note, or shown when asked for', async () => {
    expect(parsed.html).not.toContain('secret');
    expect(parsed.html).toEndWith('<p><em>1 sheet hidden in the workbook is not shown.</em></p>');
    const all = await parse(budget, { ...options, includeHiddenSheets: true });
    expect(all.html).toContain('<h2>Lookup</h2>\n<table><thead><tr><th>secret</th><th>42</th></tr></thead><tbody></tbody></table>');
  });

  test('metadata from the workbook properties', () => {
    expect(parsed.metadata).toMatchObject({
      title: 'Harbour Budget',
      author: 'Ada Lovelace',
      publishedDate: '2024-01-02T03:04:05.000Z',
      sheetCount: 4,
    });
    expect(parsed.warnings).toEqual([]);
  });

  test('the sheet cap', async () => {
    const capped = await parse(budget, { ...options, maxSheets: 1 });
    expect(capped.html).not.toContain('<h2>Notes</h2>');
    expect(capped.html).toContain('<p><em>2 sheets more are not shown (sheet or cell limit).</em></p>');
    expect(capped.warnings).toEqual(['2 sheets of 4 left out (plugins.document.xlsx.maxSheets / maxCells)']);
  });
});

test('the row and cell caps cut a sheet with a note', async () => {
  const ledger = await ledgerXlsx(300, 2);
  const rows = await parse(ledger, { ...options, maxRows: 50 });
  expect(rows.html.match(/<tr>/g)?.length).toBe(100);
  expect(rows.html).toContain(
    '<tr><td>49</td><td>Customer 49</td><td>73.5</td><td>2024-02-19</td><td>South</td><td>C49</td><td>0</td><td>paid in full</td><td>147</td><td>ok</td></tr>',
  );
  expect(rows.html).toContain('<h2>Ledger 1</h2>');
  expect(rows.html).toContain('<p><em>Only the first 50 rows of this sheet are shown (row or cell limit).</em></p>');
  const cells = await parse(ledger, { ...options, maxCells: 205 });
  expect(cells.html.match(/<tr>/g)?.length).toBe(20);
  expect(cells.html).not.toContain('Ledger 2');
  expect(cells.warnings).toEqual([
    'Sheet "Ledger 1" was cut at 20 rows (plugins.document.xlsx.maxRows / maxCells)',
    '1 sheet of 2 left out (plugins.document.xlsx.maxSheets / maxCells)',
  ]);
});

test('a sparse sheet as wide as Excel allows renders at most maxColumns columns and the cell budget', async () => {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Wide');
  for (let row = 1; row <= 2000; row++) {
    sheet.getCell(row, 1).value = `first ${row}`;
    sheet.getCell(row, 16_384).value = `last ${row}`;
  }
  const parsed = await parse(new Uint8Array(await wb.xlsx.writeBuffer()), { ...options, maxColumns: 100, maxCells: 20_000 });
  expect(parsed.html.match(/<tr>/g)?.length).toBe(200);
  expect(parsed.html.match(/<t[hd]>/g)?.length).toBe(200 * 100);
  expect(parsed.html).not.toContain('last 1<');
  expect(parsed.warnings).toEqual([
    'Sheet "Wide" is 16384 columns wide; the first 100 are shown (plugins.document.xlsx.maxColumns)',
    'Sheet "Wide" was cut at 200 rows (plugins.document.xlsx.maxRows / maxCells)',
  ]);
});

test('sheet names and tab order come from the workbook, whatever the relationship style', async () => {
  const entries = readZip(await budgetXlsx()).map((e) => {
    const xml = new TextDecoder().decode(e.data as Uint8Array);
    // Absolute targets (openpyxl writes these) and Notes moved to the first tab.
    if (e.name === 'xl/_rels/workbook.xml.rels') return { ...e, data: xml.replaceAll('Target="worksheets/', 'Target="/xl/worksheets/') };
    if (e.name === 'xl/workbook.xml') return { ...e, data: xml.replace(/(<sheets>)(.*?)(<sheet sheetId="3"[^>]*\/>)/, '$1$3$2') };
    return e;
  });
  const parsed = await parse(writeZip(entries), options);
  expect([...parsed.html.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1])).toEqual(['Notes', 'Q1 Sales', 'Empty']);
});

test('cell formatting helpers', () => {
  expect(isoCellDate(new Date(Date.UTC(2024, 0, 31)))).toBe('2024-01-31');
  expect(isoCellDate(new Date(Date.UTC(2024, 0, 31, 8, 5, 9)))).toBe('2024-01-31T08:05:09Z');
  expect(isoCellDate(new Date(Date.UTC(1899, 11, 30, 23, 59)))).toBe('23:59:00');
  expect(formatNumber(0.1 + 0.2)).toBe('0.3');
  expect(formatNumber(1e21)).toBe('1e+21');
  expect(cellHtml({ sharedFormula: 'A1', result: 'x<y' })).toBe('x&lt;y');
  expect(cellHtml({ text: 'Site', hyperlink: 'https://x.test' })).toBe('Site');
  expect(cellHtml(null)).toBe('');
});

test('a zip that is not a workbook, and a lying entry, are refused before exceljs runs', async () => {
  expect(await refusal(parse(writeZip([{ name: 'word/document.xml', data: '<w/>' }]), options))).toBe(
    'DocumentRefusal: it is not an Excel workbook (xl/workbook.xml is missing)',
  );
  const entries = readZip(await budgetXlsx());
  const bomb = writeZip(
    entries.map((e) => (e.name === 'xl/worksheets/sheet1.xml' ? { ...e, data: new Uint8Array(80 * 1024 * 1024), declaredSize: 2048 } : e)),
  );
  expect(await refusal(parse(bomb, { ...options, maxCompressionRatio: 100_000 }))).toBe(
    'DocumentRefusal: entry xl/worksheets/sheet1.xml expands past its declared size (refused as a likely zip bomb)',
  );
});
