// Document detection: magic bytes beat the Content-Type, a specific Content-Type beats the
// extension, and the extension (of the URL or the Content-Disposition name) decides only when the
// type says nothing. Also the small HTML builder every type renders with.
import { expect, test } from 'bun:test';
import type { PageDocument } from '../../../core/kit.ts';
import { testDocument } from '../../../core/testing.ts';
import { recognises, responseFileName, type DocumentKind } from './detect.ts';
import { writeZip } from './fixtures/zip-writer.ts';

const PDF: DocumentKind = { mediaTypes: ['application/pdf'], extensions: ['pdf'], magic: ['pdf'] };
const DOCX: DocumentKind = {
  mediaTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  extensions: ['docx'],
  magic: ['docx'],
  containers: ['zip'],
};
const CSV: DocumentKind = { mediaTypes: ['text/csv'], extensions: ['csv'], magic: [] };

const pdfBytes = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const docxBytes = writeZip([
  {
    name: '[Content_Types].xml',
    data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  },
  { name: 'word/document.xml', data: '<w:document/>' },
]);

function served(url: string, body: Uint8Array | string, contentType: string | null, headers: Record<string, string> = {}): PageDocument {
  const doc = testDocument({ url });
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const mediaType = contentType?.split(';')[0]?.trim() ?? '';
  doc.response = {
    status: 200,
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    body: bytes,
    finalUrl: url,
    mediaType,
  };
  return doc;
}

test('a PDF is a PDF whatever the header says', async () => {
  expect(await recognises(served('https://x.test/report', pdfBytes, 'text/html; charset=utf-8'), PDF)).toBe(true);
  expect(await recognises(served('https://x.test/download?id=7', pdfBytes, 'application/octet-stream'), PDF)).toBe(true);
  expect(await recognises(served('https://x.test/report.pdf', pdfBytes, 'application/pdf'), PDF)).toBe(true);
});

test('a DOCX without an extension, served as octet-stream, is recognised by its contents', async () => {
  const doc = served('https://x.test/files/8812', docxBytes, 'application/octet-stream');
  expect(await recognises(doc, DOCX)).toBe(true);
  expect(await recognises(doc, PDF)).toBe(false);
});

test('bytes of another kind are not claimed, even with a matching header or extension', async () => {
  expect(await recognises(served('https://x.test/a.pdf', docxBytes, 'application/pdf'), PDF)).toBe(false);
  expect(await recognises(served('https://x.test/a.docx', pdfBytes, 'application/octet-stream'), DOCX)).toBe(false);
});

test("a header naming the type claims unsniffable bytes, so a broken file gets that type's error", async () => {
  expect(await recognises(served('https://x.test/x', 'garbage that is no PDF', 'application/pdf'), PDF)).toBe(true);
  expect(await recognises(served('https://x.test/x', writeZip([{ name: 'a', data: 'b' }]), DOCX.mediaTypes[0]!), DOCX)).toBe(true);
});

test('the extension decides only when the type says nothing', async () => {
  expect(await recognises(served('https://x.test/data.csv', 'a,b\n1,2\n', 'text/plain'), CSV)).toBe(true);
  expect(await recognises(served('https://x.test/data.csv', 'a,b\n1,2\n', null), CSV)).toBe(true);
  expect(await recognises(served('https://x.test/data.csv', 'a,b\n1,2\n', 'application/vnd.ms-excel'), CSV)).toBe(true);
  expect(await recognises(served('https://x.test/data.csv', '<html><body>Sign in</body></html>', 'text/html'), CSV)).toBe(false);
  expect(
    await recognises(
      served('https://x.test/export', 'a,b\n1,2\n', 'application/octet-stream', {
        'content-disposition': 'attachment; filename="Q1 export.csv"',
      }),
      CSV,
    ),
  ).toBe(true);
  expect(await recognises(served('https://x.test/page', '<!doctype html><p>hi</p>', 'text/html'), PDF)).toBe(false);
});

test('file names come from Content-Disposition (RFC 5987 too), else the URL path', () => {
  expect(responseFileName(served('https://x.test/a/b/Report%202024.pdf?x=1', '', null))).toBe('Report 2024.pdf');
  expect(
    responseFileName(
      served('https://x.test/dl', '', null, { 'content-disposition': "attachment; filename*=UTF-8''Bericht%20%C3%BCber.pdf" }),
    ),
  ).toBe('Bericht über.pdf');
  expect(responseFileName(served('https://x.test/', '', null))).toBeNull();
});
