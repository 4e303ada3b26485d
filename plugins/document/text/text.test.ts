// The plain-text parser: paragraphs keep their line breaks, laid-out blocks stay preformatted,
// markup in the text is text, encodings are read like CSV files', and the line cap leaves a note.
import { expect, test } from 'bun:test';
import iconv from 'iconv-lite';
import { parse, type TextParseOptions } from './parse.ts';

const options: TextParseOptions = { maxLines: 1000 };
const utf8 = (text: string) => new TextEncoder().encode(text);

test('blank lines separate paragraphs; a paragraph keeps its line breaks; markup is text', async () => {
  const parsed = await parse(utf8('Harbour notes\r\nsecond line\r\n\r\n\r\nTides <b>rise</b> & fall.\n'), options);
  expect(parsed.html).toBe('<p>Harbour notes<br>second line</p>\n<p>Tides &lt;b&gt;rise&lt;/b&gt; &amp; fall.</p>');
  expect(parsed.metadata).toEqual({ lineCount: 5, charset: 'utf-8' });
  expect(parsed.warnings).toEqual([]);
});

test('indented blocks and aligned columns stay preformatted, spaces and all', async () => {
  const table = 'Port      High   Low\nLeith     09:12  15:30\nDover     10:47  17:02';
  const parsed = await parse(utf8(`Times:\n\n${table}\n\n    code();\n    more();\n`), options);
  expect(parsed.html).toBe(`<p>Times:</p>\n<pre>${table}</pre>\n<pre>    code();\n    more();</pre>`);
});

test('encodings: windows-1252 without a declaration, UTF-16 with a BOM, a declared charset', async () => {
  const text = 'Müller & Söhne, Zürich';
  expect((await parse(new Uint8Array(iconv.encode(text, 'win1252')), options)).metadata.charset).toBe('windows-1252');
  const bom = await parse(new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf16le')])), options);
  expect(bom.html).toBe('<p>Müller &amp; Söhne, Zürich</p>');
  const declared = await parse(new Uint8Array(iconv.encode(text, 'latin1')), { ...options, contentType: 'text/plain; charset=iso-8859-1' });
  expect(declared.html).toBe('<p>Müller &amp; Söhne, Zürich</p>');
});

test('the line cap keeps the first lines and says how many there were; an empty file says so', async () => {
  const parsed = await parse(utf8(Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')), { maxLines: 3 });
  expect(parsed.html).toBe('<p>line 1<br>line 2<br>line 3</p>\n<p><em>Showing the first 3 of 10 lines.</em></p>');
  expect(parsed.warnings).toEqual(['Only 3 of 10 lines are shown (plugins.document.text.maxLines)']);
  expect(parsed.metadata.lineCount).toBe(10);
  const empty = await parse(utf8('\n \n'), options);
  expect(empty.html).toBe('<p><em>This text file is empty.</em></p>');
  expect(empty.metadata.lineCount).toBe(0);
});
