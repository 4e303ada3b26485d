// The plain-text parser: paragraphs keep their line breaks, laid-out blocks stay preformatted,
// markup in the text is text, markdown is read as markdown, encodings are read like CSV files',
// and the line cap leaves a note.
import { expect, test } from 'bun:test';
import iconv from 'iconv-lite';
import { parse, readsAsMarkdown, type TextParseOptions } from './parse.ts';

const options: TextParseOptions = { maxLines: 1000 };
const utf8 = (text: string) => new TextEncoder().encode(text);

test('blank lines separate paragraphs; a paragraph keeps its line breaks; markup is text', async () => {
  const parsed = await parse(utf8('Harbour notes\r\nsecond line\r\n\r\n\r\nTides <b>rise</b> & fall.\n'), options);
  expect(parsed.html).toBe('<p>Harbour notes<br>second line</p>\n<p>Tides &lt;b&gt;rise&lt;/b&gt; &amp; fall.</p>');
  expect(parsed.metadata).toEqual({ lineCount: 5, charset: 'utf-8', markup: 'plain' });
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

test('text that reads as markdown (an llms.txt served as text/plain) is rendered as markdown, its first heading the title', async () => {
  const llms =
    '# Harbour API\n\n> Tides and berths.\n\n## Docs\n\n- [Tides](https://harbour.test/tides.md): daily tables\n- [Berths](/berths.md)\n';
  const parsed = await parse(utf8(llms), options);
  expect(parsed.html).toContain('<h1>Harbour API</h1>');
  expect(parsed.html).toContain('<li><a href="https://harbour.test/tides.md">Tides</a>: daily tables</li>');
  expect(parsed.metadata).toMatchObject({ title: 'Harbour API', markup: 'markdown', lineCount: 8 });
  // A file that says it is markdown is read as markdown whatever it shows first.
  expect((await parse(utf8('Just *one* line'), { ...options, markdown: true })).html).toBe('<p>Just <em>one</em> line</p>\n');
});

test('what makes text markdown: a heading, a fence or a link, or two kinds of markdown; a lone list or prose is not', () => {
  expect(readsAsMarkdown(['## Setup', 'text'])).toBe(true);
  expect(readsAsMarkdown(['```', 'code', '```'])).toBe(true);
  expect(readsAsMarkdown(['see [the docs](https://x.test/docs)'])).toBe(true);
  expect(readsAsMarkdown(['> quoted', '- item'])).toBe(true);
  expect(readsAsMarkdown(['Shopping:', '- bread', '- milk'])).toBe(false);
  expect(readsAsMarkdown(['#hashtag and issue #42', 'Dear reader, [sic] (really)'])).toBe(false);
  // A hostile line of brackets is read in bounded time (only the start of each line is looked at).
  const started = performance.now();
  expect(readsAsMarkdown(['['.repeat(1_000_000)])).toBe(false);
  expect(performance.now() - started).toBeLessThan(1000);
});
