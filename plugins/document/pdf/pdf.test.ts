// The PDF parser on real PDFs written with pdf-lib: rebuilt structure (headings, paragraphs,
// lists, tables, two columns, reading order), metadata, page markers, the page cap, and the
// encrypted, corrupt, truncated and decompression-bomb files it refuses.
import { beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { parse, type PdfParseOptions } from './parse.ts';
import { bombPdf, corruptPdf, encryptedPdf, longPdf, reportPdf, truncatedPdf } from './fixtures/samples.ts';
import { checkStreamBudget } from './scan.ts';
import { groupLines } from './lines.ts';
import type { ParsedDocument } from '../shared/types.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const options: PdfParseOptions = { maxPages: 100, maxDecompressedBytes: 16 * 1024 * 1024, pageMarkers: false };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: Error) => `${err.name}: ${err.message}`,
  );

describe('a structured report', () => {
  let report: Uint8Array;
  let parsed: ParsedDocument;
  beforeAll(async () => {
    report = await reportPdf();
    parsed = await parse(report, options);
  });

  test('headings by font size, the largest first, even when drawn last', () => {
    expect(parsed.html.startsWith('<h1>Harbour Authority Annual Report</h1>\n<h2>Ferry operations</h2>')).toBe(true);
    expect(parsed.html).toContain('<h2>Sailings by route</h2>');
    expect(parsed.html).toContain('<h2>Two views of the year</h2>');
  });

  test('paragraphs joined across lines, de-hyphenated, and across a page break mid-sentence', () => {
    expect(parsed.html).toContain(
      '<p>Passenger numbers rose for the third year running, helped by a new international route and better connections with the railway.</p>',
    );
    expect(parsed.html).toContain('looks forward to the opening of the new terminal building next spring.</p>');
  });

  test('bullet and numbered lists, with a wrapped item kept whole', () => {
    expect(parsed.html).toContain(
      '<ul><li>Two new vessels entered service</li><li>Waiting times fell by a third</li><li>The northern pier was rebuilt after the storm of January, reopening in May</li></ul>',
    );
    expect(parsed.html).toContain('<ol><li>Renew the ticket machines</li><li>Extend the winter timetable</li></ol>');
  });

  test('a table with its header row and every cell', () => {
    expect(parsed.html).toContain(
      '<table><thead><tr><th>Route</th><th>Sailings</th><th>Delay (min)</th></tr></thead><tbody><tr><td>North Sound</td><td>1,204</td><td>2.5</td></tr><tr><td>South Ferry</td><td>986</td><td>1.0</td></tr><tr><td>Outer Isles</td><td>312</td><td>7.25</td></tr></tbody></table>',
    );
  });

  test('a two-column page reads the left column, then the right', () => {
    const crews = parsed.html.indexOf('<p>The crews say:');
    const passengers = parsed.html.indexOf('<p>The passengers say: Boats leave');
    expect(crews).toBeGreaterThan(0);
    expect(passengers).toBeGreaterThan(crews);
  });

  test('running headers and page numbers are dropped', () => {
    expect(parsed.html).not.toContain('Harbour Authority Annual Report 2025');
    expect(parsed.html).not.toMatch(/Page \d/);
  });

  test('metadata from the document information', () => {
    expect(parsed.metadata).toEqual({
      title: 'Harbour Authority Annual Report',
      author: 'Morag Lindsay',
      description: 'Ferry operations in 2025',
      publishedDate: '2025-02-03T10:00:00.000Z',
      language: null,
      keywords: null,
      pageCount: 2,
    });
    expect(parsed.warnings).toEqual([]);
  });

  test('page markers when asked for', async () => {
    const marked = await parse(report, { ...options, pageMarkers: true });
    expect(marked.html.startsWith('<p><em>Page 1 of 2</em></p>\n<h1>')).toBe(true);
    expect(marked.html).toContain(
      'looks forward to the opening of the</p>\n<p><em>Page 2 of 2</em></p>\n<p>new terminal building next spring.</p>',
    );
  });

  test('the caller keeps its bytes (pdf.js detaches the buffer it is given)', () => {
    expect(report.byteLength).toBeGreaterThan(1000);
  });
});

test('the page cap reads the first pages and says so', async () => {
  const parsed = await parse(await longPdf(5), { ...options, maxPages: 2 });
  expect(parsed.html).toContain('<h1>Chapter 2</h1>');
  expect(parsed.html).not.toContain('Chapter 3');
  expect(parsed.html).toContain('<p><em>Only the first 2 of 5 pages were read.</em></p>');
  expect(parsed.warnings).toEqual(['Only the first 2 of 5 pages were read (plugins.document.pdf.maxPages)']);
  expect(parsed.metadata.pageCount).toBe(5);
});

test('hostile and broken files are refused with the reason', async () => {
  expect(await refusal(parse(await encryptedPdf(), options))).toBe('DocumentRefusal: the file is encrypted and needs a password');
  expect(await refusal(parse(corruptPdf(), options))).toBe('DocumentRefusal: the file is corrupt (invalid PDF structure)');
  expect(await refusal(parse(await truncatedPdf(), options))).toBe(
    'DocumentRefusal: the file is truncated (its end-of-file marker is missing)',
  );
  expect(await refusal(parse(new TextEncoder().encode('<html>not a pdf</html>'), options))).toBe(
    'DocumentRefusal: the file is corrupt (it does not start with a PDF header)',
  );
  expect(await refusal(parse(await bombPdf(64 * 1024 * 1024), options))).toBe(
    'DocumentRefusal: its compressed content expands to more than 16 MB (refused as a likely decompression bomb)',
  );
});

test('the stream budget counts content streams and skips images', async () => {
  expect(await checkStreamBudget(await bombPdf(1024 * 1024), 2 * 1024 * 1024)).toBe(1024 * 1024);
  const image = new TextEncoder().encode(
    '%PDF-1.4\n5 0 obj << /Type /XObject /Subtype /Image /Filter /FlateDecode /Length 3 >>\nstream\nabc\nendstream\nendobj\n%%EOF',
  );
  expect(await checkStreamBudget(image, 1)).toBe(0);
  // A small stream is inflated in one call, a large one streamed: both stop at the budget.
  expect(await refusal(checkStreamBudget(await bombPdf(3 * 1024 * 1024), 1024 * 1024))).toBe(
    'DocumentRefusal: its compressed content expands to more than 1 MB (refused as a likely decompression bomb)',
  );
});

test('a PDF without text says it may be scanned', async () => {
  const parsed = await parse(await bombPdf(10), options);
  expect(parsed.html).toBe('<p><em>This PDF has no extractable text; it may consist of scanned images.</em></p>');
  expect(parsed.warnings).toEqual(['The PDF has no extractable text; it may be scanned images (OCR is not supported)']);
});

test('runs on one baseline form a line; a wide gap splits it into cells', () => {
  const lines = groupLines(1, [
    { text: 'Trips', x: 200, y: 100.5, width: 30, size: 10 },
    { text: 'Route', x: 50, y: 100, width: 30, size: 10 },
    { text: 'North', x: 50, y: 112, width: 28, size: 10 },
    { text: 'Sound', x: 80, y: 112, width: 32, size: 10 },
  ]);
  expect(lines.map((l) => l.segments.map((s) => s.text))).toEqual([['Route', 'Trips'], ['North Sound']]);
});
