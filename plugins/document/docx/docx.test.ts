// The DOCX parser on real Word files written with the `docx` package: structure, footnotes,
// tables with a header row, document properties, and the zip-level refusals.
import { beforeAll, expect, test, setDefaultTimeout } from 'bun:test';
import { parse, type DocxParseOptions } from './parse.ts';
import { tidyDocxHtml } from './tidy.ts';
import { handbookDocx } from './fixtures/samples.ts';
import { readZip, writeZip } from '../shared/fixtures/zip-writer.ts';
import type { ParsedDocument } from '../shared/types.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const limits: DocxParseOptions = {
  maxEntries: 100,
  maxDecompressedBytes: 50 * 1024 * 1024,
  maxCompressionRatio: 500,
  maxDocumentXmlBytes: 1024 * 1024,
};
let handbook: Uint8Array;
let parsed: ParsedDocument;
beforeAll(async () => {
  handbook = await handbookDocx();
  parsed = await parse(handbook, limits);
});
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: Error) => `${err.name}: ${err.message}`,
  );

test('headings (Title is the h1), emphasis, links, lists and a quote', () => {
  expect(parsed.html).toStartWith(
    '<h1>Ferry Handbook</h1><h1>Getting aboard</h1><p>Arrive <strong>early</strong> and <em>relax</em>.<sup>[1]</sup></p>',
  );
  expect(parsed.html).toContain('<p>See <a href="https://ferries.example/timetable">the timetable</a> for sailings.</p><h2>Tickets</h2>');
  expect(parsed.html).toContain(
    '<ul><li>Buy online</li><li>Or at the pier</li></ul><ol><li>Show your ticket</li><li>Board by the ramp</li></ol>',
  );
  expect(parsed.html).toContain('<blockquote><p>Mind the gap between the ramp and the deck.</p></blockquote>');
});

test('a table whose first row is its header row', () => {
  expect(parsed.html).toContain(
    '<table><thead><tr><th><p>Route</p></th><th><p>Price</p></th><th><p>Crossing</p></th></tr></thead><tbody><tr><td><p>North Sound</p></td><td><p>£4.50</p></td><td><p>25 min</p></td></tr>',
  );
});

test('footnotes: a plain marker in the text, the notes under a heading, no back-links', () => {
  expect(parsed.html).toEndWith('<h2>Footnotes</h2><ol><li id="footnote-1"><p>Timetables change in winter. </p></li></ol>');
  expect(parsed.html).not.toContain('↑');
  expect(parsed.html).not.toContain('href="#');
});

test('metadata from the document properties', () => {
  expect(parsed.metadata).toEqual({
    title: 'Ferry Handbook',
    author: 'Grace Hopper',
    description: 'How the island ferries run',
    publishedDate: '2024-05-06T07:08:09.000Z',
    language: 'en-GB',
    keywords: null,
  });
});

test("without properties: the styles' default language, and the first heading as title", async () => {
  const styles =
    '<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="cy-GB" w:eastAsia="zh-CN"/></w:rPr></w:rPrDefault></w:docDefaults></w:styles>';
  const entries = readZip(handbook).map((e) =>
    e.name === 'word/styles.xml'
      ? { ...e, data: styles }
      : e.name === 'docProps/core.xml'
        ? { ...e, data: '<cp:coreProperties xmlns:cp="x"/>' }
        : e,
  );
  const welsh = await parse(writeZip(entries), limits);
  // Without its styles the Title paragraph is plain text, so the first h1 is "Getting aboard".
  expect(welsh.metadata).toMatchObject({ language: 'cy-GB', title: 'Getting aboard', author: null });
});

test('tidying: endnotes, images and tables that already have a header', () => {
  const html = tidyDocxHtml(
    '<p>x<sup><a href="#endnote-2" id="endnote-ref-2">[1]</a></sup><img src="data:image/png;base64,AAAA" alt="chart"></p><table><thead><tr><th>A</th></tr></thead><tr><td>1</td></tr></table><ol><li id="endnote-2"><p>Note. <a href="#endnote-ref-2">↑</a></p></li></ol>',
  );
  expect(html).toBe(
    '<p>x<sup>[1]</sup></p><table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><h2>Endnotes</h2><ol><li id="endnote-2"><p>Note. </p></li></ol>',
  );
});

test('a zip that is not a Word document, and zip bombs, are refused before mammoth runs', async () => {
  expect(await refusal(parse(writeZip([{ name: 'xl/workbook.xml', data: '<workbook/>' }]), limits))).toBe(
    'DocumentRefusal: it is not a Word document (word/document.xml is missing)',
  );
  const entries = readZip(handbook);
  const bomb = writeZip(
    entries.map((e) =>
      e.name === 'word/document.xml'
        ? { ...e, data: new Uint8Array(80 * 1024 * 1024), declaredSize: (e.data as Uint8Array).byteLength }
        : e,
    ),
  );
  expect(await refusal(parse(bomb, limits))).toBe(
    'DocumentRefusal: entry word/document.xml expands past its declared size (refused as a likely zip bomb)',
  );
  const honestBomb = writeZip([...entries, { name: 'word/media/fill.bin', data: new Uint8Array(60 * 1024 * 1024) }]);
  expect(await refusal(parse(honestBomb, { ...limits, maxCompressionRatio: 100_000 }))).toBe(
    'DocumentRefusal: the archive expands to more than 50 MB (refused as a likely zip bomb)',
  );
  const wordy = writeZip(
    entries.map((e) => (e.name === 'word/document.xml' ? { ...e, data: `<w:document>${'<w:p/>'.repeat(200_000)}</w:document>` } : e)),
  );
  expect(await refusal(parse(wordy, limits))).toBe('DocumentRefusal: its text (word/document.xml) is 1.1 MB, over the 1 MB limit');
  const dense = writeZip([...entries, { name: 'word/media/fill.bin', data: new Uint8Array(10 * 1024 * 1024) }]);
  expect(await refusal(parse(dense, limits))).toMatch(
    /^DocumentRefusal: entry word\/media\/fill\.bin is compressed \d+:1, over the 500:1 limit/,
  );
});
