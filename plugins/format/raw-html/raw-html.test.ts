// rawHtml format: the response as received.
import { expect, test } from 'bun:test';
import { testContext, testDocument } from '../../../core/testing.ts';
import { rawHtmlFormat } from './raw-html.ts';
import { htmlStages } from '../../../test/helpers/html-page.ts';

const PAGE = '<!DOCTYPE html>\n<html><head><script>track()</script></head><body><!-- note --><p>Café</p></body></html>\n';

test('the response text exactly as received, even after parsing and cleaning', async () => {
  const ctx = testContext();
  const doc = testDocument({ url: 'https://example.com/', formats: ['rawHtml'] });
  doc.response = {
    status: 200,
    headers: {},
    body: new TextEncoder().encode(PAGE),
    finalUrl: 'https://example.com/',
    mediaType: 'text/html',
    text: PAGE,
    charset: 'utf-8',
  };
  htmlStages(doc);
  expect(await (await rawHtmlFormat.setup({}, ctx)).render(doc)).toBe(PAGE);
  expect(rawHtmlFormat.provides).toEqual(['format:rawHtml']);
});

test('an HTML body that arrived as bytes only is decoded', async () => {
  const doc = testDocument({ url: 'https://example.com/' });
  doc.type = 'document.html';
  doc.response = { status: 200, headers: {}, body: new TextEncoder().encode(PAGE), finalUrl: 'https://example.com/', mediaType: '' };
  expect(await (await rawHtmlFormat.setup({}, testContext())).render(doc)).toBe(PAGE);
});

test('a binary document returns the HTML built from it, with a warning', async () => {
  const doc = testDocument({ url: 'https://example.com/file.pdf' });
  doc.type = 'document.pdf';
  doc.response = {
    status: 200,
    headers: {},
    body: Uint8Array.from([0x25, 0x50, 0x44, 0x46]),
    finalUrl: 'https://example.com/file.pdf',
    mediaType: 'application/pdf',
  };
  doc.setContentHtml('<h1>Report</h1>');
  expect(await (await rawHtmlFormat.setup({}, testContext())).render(doc)).toBe('<html><head></head><body><h1>Report</h1></body></html>');
  expect(doc.messages.map((m) => m.plugin)).toEqual(['format.raw-html']);
});
