// Markdown format: fixture pages end to end, GFM tables, clean-output rules and assets.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { parseHtmlFragment } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { fixtureCases, testContext, testDocument } from '../../../core/testing.ts';
import { htmlPage } from '../../../test/helpers/html-page.ts';
import { ASSETS_KEY, markdownFormat } from './markdown.ts';
import { contentMarkdown, convertibleRoot, createTurndown, elementToMarkdown } from '../shared/markdown.ts';
import { collectAssets } from '../shared/assets.ts';
import { tidyMarkdown } from '../shared/tidy.ts';
import { codeLanguage } from '../shared/rules.ts';

const service = createTurndown();
const md = (html: string) => elementToMarkdown(service, parseHtmlFragment(html));

/** A fixture page through parse → transforms (clean, resolve URLs) → markdown, as the pipeline runs it. */
async function renderPage(html: string, url: string): Promise<{ doc: PageDocument; markdown: string }> {
  const doc = htmlPage(html, { url });
  const markdown = (await (await markdownFormat.setup({}, testContext())).render(doc)) as string;
  return { doc, markdown };
}

/** Each fixture folder holds a page and its expected markdown (`UPDATE=1 bun test` rewrites that, for review as a diff). */
const fixtures = new Map(
  fixtureCases(join(import.meta.dir, 'fixtures'), { input: 'input.html', expected: 'expected.md' }).map((c) => [c.name, c]),
);
const fixture = (name: string) => fixtures.get(name)!;

describe('fixture pages', () => {
  test('docs page: headings, table, fenced code with languages, lists, images', async () => {
    const { markdown } = await renderPage(fixture('docs-page').input, 'https://trawl.example/docs/config/');
    fixture('docs-page').expect(markdown);
  });

  test('news article: lazy image, figure, quote, javascript link and empty link dropped; assets collected', async () => {
    const { doc, markdown } = await renderPage(fixture('news-article').input, 'https://riverside-gazette.example/news/cycle-lanes');
    fixture('news-article').expect(markdown);
    expect(doc.data.get(ASSETS_KEY)).toEqual([
      { type: 'image', url: 'https://riverside-gazette.example/media/mill-road.jpg', alt: 'Mill Road at rush hour' },
      { type: 'video', url: 'https://riverside-gazette.example/media/clip.mp4' },
    ]);
  });
});

describe('tables', () => {
  test('a table with a header row', () => {
    expect(
      md(
        '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Apple</td><td>3</td></tr><tr><td>Pear</td><td>10</td></tr></tbody></table>',
      ),
    ).toBe('| Name | Qty |\n| --- | --- |\n| Apple | 3 |\n| Pear | 10 |');
  });

  test('no header row: the first row becomes the header; short rows are padded; colspan repeats empty cells', () => {
    expect(
      md('<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan="2">wide</td><td>z</td></tr><tr><td>only</td></tr></table>'),
    ).toBe('| a | b | c |\n| --- | --- | --- |\n| wide |  | z |\n| only |  |  |');
  });

  test('cells stay on one line and pipes are escaped', () => {
    expect(md('<table><tr><th>k</th><th>v</th></tr><tr><td><p>one</p><p>two</p></td><td>a | b<br>c \\| d</td></tr></table>')).toBe(
      '| k | v |\n| --- | --- |\n| one two | a \\| b c \\\\\\| d |',
    );
  });

  test('a caption comes first; a nested table does not leak rows into its parent', () => {
    expect(
      md(
        '<table><caption>Totals</caption><tr><th>x</th><th>y</th></tr><tr><td>1</td><td><table><tr><td>i</td><td>j</td></tr></table></td></tr></table>',
      ),
    ).toBe('Totals\n\n| x | y |\n| --- | --- |\n| 1 | \\| i \\| j \\| \\| --- \\| --- \\| |');
  });

  test('a layout table (one non-empty cell per row) renders as its content; an empty one as nothing', () => {
    expect(md('<table><tr><td><h2>Title</h2></td></tr><tr><td><p>Para one.</p><p>Para two.</p></td></tr></table>')).toBe(
      '## Title\n\nPara one.\n\nPara two.',
    );
    expect(md('<table><tr><td>Search</td><td><input type="text"></td></tr></table>')).toBe('Search');
    expect(md('<p>a</p><table><tr><td><input></td><td><button></button></td></tr></table><p>b</p>')).toBe('a\n\nb');
  });
});

describe('clean markdown', () => {
  test('`-` bullets, numbered lists from start, nested indentation', () => {
    expect(md('<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul><ol start="9"><li>nine</li><li>ten</li></ol>')).toBe(
      '- a\n  - b\n- c\n\n9. nine\n10. ten',
    );
  });

  test('links without text vanish; image links keep the image; card links stay on one line', () => {
    expect(
      md(
        '<p>See <a href="https://x.example/"> </a>this <a href="https://x.example/a" title="The A">A</a>.</p><a href="https://x.example/i"><img src="https://x.example/i.png" alt="I"></a>',
      ),
    ).toBe('See this [A](https://x.example/a "The A").\n\n[![I](https://x.example/i.png)](https://x.example/i)');
    expect(md('<a href="https://x.example/card"><h3>Card</h3><p>Summary</p></a>')).toBe('[Card Summary](https://x.example/card)');
  });

  test('images: alt escaped, parentheses in URLs escaped, data: and src-less images dropped', () => {
    expect(md('<img src="https://x.example/a_(1).png" alt="Fig [1]"><img src="data:image/png;base64,AAAA" alt="x"><img alt="none">')).toBe(
      '![Fig \\[1\\]](https://x.example/a_\\(1\\).png)',
    );
  });

  test('strikethrough and task lists', () => {
    expect(md('<p><s>old</s> new</p><ul><li><input type="checkbox" checked> done</li><li><input type="checkbox">todo</li></ul>')).toBe(
      '~~old~~ new\n\n- [x] done\n- [ ] todo',
    );
  });

  test('code: fence longer than any backtick run inside; language from the usual places', () => {
    expect(md('<pre><code>```js\nx\n```</code></pre>')).toBe('````\n```js\nx\n```\n````');
    const pre = (html: string) => parseHtmlFragment(html).querySelector('pre')!;
    expect(codeLanguage(pre('<pre><code class="hljs language-typescript">x</code></pre>'))).toBe('typescript');
    expect(codeLanguage(pre('<pre class="lang-py">x</pre>'))).toBe('py');
    expect(codeLanguage(pre('<div class="highlight-source-rust"><pre>x</pre></div>'))).toBe('rust');
    expect(codeLanguage(pre('<pre data-lang="go"><code>x</code></pre>'))).toBe('go');
    expect(codeLanguage(pre('<pre><code>x</code></pre>'))).toBe('');
  });

  test('tidy: one blank line at most outside code, code untouched, hard breaks kept', () => {
    expect(tidyMarkdown('\n\n# T  \n\n\n   \npara  \nnext\t\n\n\n```\na\n\n\n\nb\n```\n\n\n\nend\n\n')).toBe(
      '# T\n\npara  \nnext\n\n```\na\n\n\n\nb\n```\n\nend',
    );
  });
});

describe('plugin', () => {
  test('renders doc.root without modifying it and publishes assets', async () => {
    const handler = await markdownFormat.setup({}, testContext());
    const doc = testDocument({ url: 'https://x.example/a/' });
    doc.setContentHtml('<h1>T</h1><p>x <img src="/i.png" alt="i"> <img src="/i.png"></p><audio src="s.mp3"></audio>');
    const before = doc.root!.innerHTML;
    expect(await handler.render(doc)).toBe('# T\n\nx ![i](/i.png) ![](/i.png)');
    expect(doc.root!.innerHTML).toBe(before);
    expect(doc.data.get(ASSETS_KEY)).toEqual([
      { type: 'image', url: 'https://x.example/i.png', alt: 'i' },
      { type: 'audio', url: 'https://x.example/a/s.mp3' },
    ]);
    expect(markdownFormat.provides).toEqual(['format:markdown']);
  });

  test('contentMarkdown converts once per content root: later formats reuse it, a new root is converted afresh', () => {
    const doc = testDocument({ url: 'https://x.example/' });
    doc.setContentHtml('<p>first</p>');
    expect(contentMarkdown(doc, service)).toBe('first');
    doc.root!.innerHTML = '<p>changed in place</p>';
    expect(contentMarkdown(doc, service)).toBe('first');
    doc.setContentHtml('<p>second</p>');
    expect(contentMarkdown(doc, service)).toBe('second');
  });

  test('a content root that is itself a table, row, cell, list, code block or heading keeps its markup', () => {
    const root = (html: string) => parseHtmlFragment(html).firstElementChild!;
    expect(elementToMarkdown(service, root('<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>'))).toBe(
      '| k | v |\n| --- | --- |\n| a | 1 |',
    );
    expect(elementToMarkdown(service, root('<ol start="3"><li>three</li><li>four</li></ol>'))).toBe('3. three\n4. four');
    expect(elementToMarkdown(service, root('<pre><code class="language-sh">ls  -l</code></pre>'))).toBe('```sh\nls  -l\n```');
    expect(elementToMarkdown(service, root('<h2>Title</h2>'))).toBe('## Title');
    const cell = parseHtmlFragment('<table><tr><td><h2>In a cell</h2><p>Layout content.</p></td></tr></table>').querySelector('td')!;
    expect(elementToMarkdown(service, cell)).toBe('## In a cell\n\nLayout content.');
    const row = parseHtmlFragment('<table><tr><td>a</td><td>b</td></tr></table>').querySelector('tr')!;
    expect(elementToMarkdown(service, row)).toBe('| a | b |\n| --- | --- |');
    const div = root('<div><p>x</p></div>');
    expect(convertibleRoot(div)).toBe(div);
  });

  test('no content root: empty markdown', async () => {
    const handler = await markdownFormat.setup({}, testContext());
    expect(await handler.render(testDocument({ url: 'https://x.example/' }))).toBe('');
  });

  test('assets skip data: URIs and repeat URLs', () => {
    const root = parseHtmlFragment(
      '<img src="data:image/gif;base64,AA"><video src="/v.mp4"><source src="/v.mp4"><source src="/v.webm"></video>',
    );
    expect(collectAssets(root, 'https://x.example/')).toEqual([
      { type: 'video', url: 'https://x.example/v.mp4' },
      { type: 'video', url: 'https://x.example/v.webm' },
    ]);
  });
});
