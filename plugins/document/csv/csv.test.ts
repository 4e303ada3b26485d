// The CSV parser: encodings (UTF-8, windows-1252, UTF-16 with and without BOM, declared charset),
// delimiters (comma, semicolon, tab, pipe, with quoted delimiters and newlines), the header row,
// the row and cell caps with their note, and odd input.
import { expect, test } from 'bun:test';
import iconv from 'iconv-lite';
import { parse, type CsvParseOptions } from './parse.ts';
import { decodeTextFile } from '../shared/decode.ts';
import { sniffDelimiter } from './sniff.ts';

const options: CsvParseOptions = { maxRows: 100, maxCells: 10_000, maxColumns: 256 };
const SAMPLE = 'name;city;note\n"Müller, Hans";Zürich;"line one\nline two"\nDupont;Paris;"said ""hi"""\n';
const utf8 = (text: string) => new TextEncoder().encode(text);

test('a header row and records become one table; quotes, escaped quotes and newlines in fields are kept', async () => {
  const parsed = await parse(utf8(SAMPLE), options);
  expect(parsed.html).toBe(
    '<table><thead><tr><th>name</th><th>city</th><th>note</th></tr></thead><tbody>' +
      '<tr><td>Müller, Hans</td><td>Zürich</td><td>line one<br>line two</td></tr>' +
      '<tr><td>Dupont</td><td>Paris</td><td>said &quot;hi&quot;</td></tr></tbody></table>',
  );
  expect(parsed.metadata).toEqual({ rowCount: 2, columnCount: 3, delimiter: ';', charset: 'utf-8' });
  expect(parsed.warnings).toEqual([]);
});

test.each([
  ['windows-1252 without a declaration', iconv.encode(SAMPLE, 'win1252'), undefined, 'windows-1252'],
  ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE)]), undefined, 'utf-8'],
  ['UTF-16LE without a BOM', iconv.encode(SAMPLE, 'utf16le'), undefined, 'utf-16le'],
  ['UTF-16BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(SAMPLE, 'utf16be')]), undefined, 'utf-16be'],
  ['a declared ISO-8859-1', iconv.encode(SAMPLE, 'latin1'), 'text/csv; charset=iso-8859-1', 'windows-1252'],
])('encoding: %s', (_label, bytes, contentType, charset) => {
  const decoded = decodeTextFile(new Uint8Array(bytes), contentType);
  expect(decoded.charset).toBe(charset);
  expect(decoded.text.replace(/^\uFEFF/, '')).toBe(SAMPLE);
});

test('delimiters are sniffed from the records, quoted delimiters and all', () => {
  expect(sniffDelimiter('a,b,c\n1,2,3\n4,5,6\n')).toBe(',');
  expect(sniffDelimiter('a;b;c\n"1,5";2;3\n"4,5";5;6\n')).toBe(';');
  expect(sniffDelimiter('a\tb\n1,5\t2\n3,5\t4\n')).toBe('\t');
  expect(sniffDelimiter('id|note\n1|"a, b; c"\n2|"d, e; f"\n')).toBe('|');
  expect(sniffDelimiter('just one column\nof words\n')).toBe(',');
  expect(sniffDelimiter('a,b\tc\n1,2\t3\n', '\t')).toBe('\t');
});

test('the row cap keeps the header and the first rows, and says how many there were', async () => {
  const csv = ['id,value', ...Array.from({ length: 250 }, (_, i) => `${i + 1},v${i + 1}`)].join('\r\n');
  const parsed = await parse(utf8(csv), { ...options, maxRows: 100 });
  expect(parsed.html.match(/<tr>/g)?.length).toBe(101);
  expect(parsed.html).toContain('<tr><td>100</td><td>v100</td></tr></tbody></table>\n<p><em>Showing the first 100 of 250 rows.</em></p>');
  expect(parsed.warnings).toEqual(['Only 100 of 250 rows are shown (plugins.document.csv.maxRows / maxCells)']);
  expect(parsed.metadata.rowCount).toBe(250);
});

test('wide files reach the cell cap first', async () => {
  const row = (r: number) => Array.from({ length: 50 }, (_, c) => `r${r}c${c}`).join(',');
  const parsed = await parse(utf8(Array.from({ length: 30 }, (_, r) => row(r)).join('\n')), { ...options, maxRows: 100, maxCells: 500 });
  expect(parsed.html.match(/<tr>/g)?.length).toBe(10);
  expect(parsed.html).toContain('Showing the first 9 of 29 rows.');
});

test('a file hundreds of thousands of columns wide is cut to maxColumns, kept small, with a note', async () => {
  const wide = (r: number) => Array.from({ length: 300_000 }, (_, c) => (c % 1000 === 0 ? `r${r}c${c}` : '')).join(',');
  const parsed = await parse(utf8([wide(0), wide(1), wide(2)].join('\n')), { ...options, maxColumns: 256 });
  expect(parsed.html.match(/<tr>/g)?.length).toBe(3);
  expect(parsed.html.match(/<t[hd]>/g)?.length).toBe(3 * 256);
  expect(parsed.html.length).toBeLessThan(20_000);
  expect(parsed.html).toContain('Showing the first 256 of 300000 columns.');
  expect(parsed.warnings).toEqual(['Only 256 of 300000 columns are shown (plugins.document.csv.maxColumns)']);
  expect(parsed.metadata.columnCount).toBe(300_000);
});

test('ragged rows are padded, blank lines skipped, markup in cells escaped', async () => {
  const parsed = await parse(utf8('a,b,c\n\n1,<b>2</b>\n, ,\n3,4,5,6\n'), options);
  expect(parsed.html).toBe(
    '<table><thead><tr><th>a</th><th>b</th><th>c</th><th></th></tr></thead><tbody>' +
      '<tr><td>1</td><td>&lt;b&gt;2&lt;/b&gt;</td><td></td><td></td></tr><tr><td>3</td><td>4</td><td>5</td><td>6</td></tr></tbody></table>',
  );
});

test('an unterminated quote is read to the end, with a warning; an empty file says so', async () => {
  const open = await parse(utf8('a,b\n1,"never closed\n2,3\n'), options);
  expect(open.warnings).toEqual(['A quoted field is never closed; the rest of the file was read as part of it']);
  expect(open.html).toContain('<tr><td>1</td><td>never closed<br>2,3</td></tr>');
  const empty = await parse(utf8(''), options);
  expect(empty.html).toBe('<p><em>This CSV file is empty.</em></p>');
  expect(empty.metadata.rowCount).toBe(0);
});
