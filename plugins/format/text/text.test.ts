// Text format.
import { expect, test } from 'bun:test';
import { testContext, testDocument } from '../../../core/testing.ts';
import { textFormat } from './text.ts';

test('headings and list items on their own lines, paragraphs apart, pre lines kept', async () => {
  const handler = await textFormat.setup({}, testContext());
  const doc = testDocument({ url: 'https://example.com/', formats: ['text'] });
  doc.setContentHtml(
    '<h1>Release  notes</h1><p>Version <b>2.0</b> is out.\n It is fast.</p><ul><li>One</li><li>Two</li></ul><pre>line 1\n  line 2</pre><table><tr><td>a</td><td>b</td></tr></table>',
  );
  expect(await handler.render(doc)).toBe('Release notes\n\nVersion 2.0 is out. It is fast.\n\nOne\n\nTwo\n\nline 1\n  line 2\n\na b');
  expect(textFormat.provides).toEqual(['format:text']);
});

test('no content root: empty text', async () => {
  const handler = await textFormat.setup({}, testContext());
  expect(await handler.render(testDocument({ url: 'https://example.com/' }))).toBe('');
});
