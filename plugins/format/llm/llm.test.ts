// llm format: header, content and links section of a realistic page, and the step list itself.
import { describe, expect, test } from 'bun:test';
import { testContext, testDocument } from '../../../core/testing.ts';
import { htmlPage, renderFormat } from '../../../test/helpers/html-page.ts';
import { LLM_STEPS, llmFormat, llmFromMarkdown, renderLlm } from './llm.ts';

const CONTENT = `<h1>Release 2.0</h1>
<p><img src="/img/banner.png" alt="Banner"> Version <strong>2.0</strong> of <a href="/docs/">the <em>toolkit</em></a> is out — it’s <a href="/docs/#install">easy to install</a>.</p>
<div class="stats"><p>12.5k</p><p>Stars</p><p>340</p><p>Forks</p></div>
<table><tr><th>Feature</th><th>Status</th></tr><tr><td>snake_case names</td><td>done</td></tr></table>
<hr>
<p>Read <a href="https://blog.example/post?utm_source=docs">the announcement</a> or <a href="/docs/">the docs</a> again. <em><a href="https://wiki.example/Time_loop_(film)">Time loop</a></em> and <em>its_sequel</em>. See <a href="/hooks">the _init_ hook</a>.</p>
<pre><code>npm  install   **toolkit**_v2</code></pre>
<p><a href="/download"><img src="/img/dl.png" alt="Download"></a></p>`;

async function page() {
  const doc = htmlPage(`<html><body>${CONTENT}</body></html>`, { url: 'https://tool.example/news/2-0', formats: ['llm'] });
  doc.metadata.title = 'Release 2.0 | Toolkit';
  return doc;
}

describe('llm format', () => {
  test('header with URL and title, lean content, links section', async () => {
    const handler = await llmFormat.setup({}, testContext());
    expect(await handler.render(await page())).toBe(
      [
        'URL: https://tool.example/news/2-0',
        'Title: Release 2.0 | Toolkit',
        '',
        '# Release 2.0',
        '',
        "Version 2.0 of the toolkit is out — it's easy to install.",
        '',
        '12.5k Stars, 340 Forks',
        '',
        'Feature | Status',
        'snake_case names | done',
        '',
        'Read the announcement or the docs again. Time loop and its_sequel. See the _init_ hook.',
        '',
        '```',
        'npm  install   **toolkit**_v2',
        '```',
        '',
        'Links:',
        'the toolkit: /docs/',
        'the announcement: https://blog.example/post',
        'Time loop: https://wiki.example/Time_loop_(film)',
        'the _init_ hook: /hooks',
      ].join('\n'),
    );
  });

  test("renderLlm is the step pipeline applied to the markdown format's output", async () => {
    const doc = await page();
    const markdown = (await renderFormat('markdown', doc)) as string;
    expect(renderLlm(doc)).toBe(llmFromMarkdown({ url: doc.baseUrl, title: doc.metadata.title, markdown }));
  });

  test('without steps it is the header and the markdown; an empty page is the header alone', async () => {
    expect(llmFromMarkdown({ url: 'https://x.example/', title: ' A \n title ', markdown: '**b** [c](https://x.example/c)' }, [])).toBe(
      'URL: https://x.example/\nTitle: A title\n\n**b** [c](https://x.example/c)',
    );
    expect(renderLlm(testDocument({ url: 'https://x.example/' }))).toBe('URL: https://x.example/');
  });

  test('the pipeline has at least nine named steps, in a fixed order', () => {
    expect(LLM_STEPS.map((s) => s.name)).toEqual([
      'strip-images',
      'links-to-text',
      'remove-emphasis',
      'dedupe-links',
      'shorten-links',
      'unescape',
      'compact-tables',
      'ascii-quotes',
      'drop-empty-lines',
      'merge-stats',
      'collapse-whitespace',
    ]);
    expect(llmFormat.provides).toEqual(['format:llm']);
  });
});
