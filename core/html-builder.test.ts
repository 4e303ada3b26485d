// The HTML builder: text never becomes markup; header-row tables.
import { expect, test } from 'bun:test';
import { escapeHtml, htmlTable, note, textWithBreaks } from './html-builder.ts';

test('the HTML builder escapes text and builds header-row tables', () => {
  expect(escapeHtml('<b>"A & B"</b>')).toBe('&lt;b&gt;&quot;A &amp; B&quot;&lt;/b&gt;');
  expect(textWithBreaks('one\r\ntwo <3')).toBe('one<br>two &lt;3');
  expect(note('Cut short')).toBe('<p><em>Cut short</em></p>');
  expect(htmlTable([['A', 'B'], ['1']])).toBe(
    '<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td></td></tr></tbody></table>',
  );
  expect(htmlTable([])).toBe('');
});
