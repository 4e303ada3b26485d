// json format: the structure of `extraction`, and that it agrees with the formats it is built from.
import { describe, expect, test } from 'bun:test';
import { testContext, testDocument } from '../../../core/testing.ts';
import { jsonFormat, type Extraction } from './json.ts';
import { renderFormat } from '../../../test/helpers/html-page.ts';

const CONTENT =
  '<h1>Tidal power</h1><p>Turbines on the <a href="/wiki/Firth?utm_source=feed">Firth</a> turn with the <strong>tide</strong>.</p>' +
  '<img src="/media/map.png" alt="Map"><video src="/media/clip.mp4"></video><p><a href="https://other.example/">Elsewhere</a> and <a href="mailto:a@b.example">mail</a>.</p>';

function page() {
  const doc = testDocument({ url: 'https://harbour.example/news/tidal', formats: ['json'] });
  doc.setContentHtml(CONTENT);
  Object.assign(doc.metadata, { title: 'Tidal power', description: 'Turbines.', language: 'en', wordCount: 13, statusCode: 200 });
  return doc;
}

describe('extraction', () => {
  test("url, metadata, content as markdown and text, word count, the content's links and assets", async () => {
    const extraction = (await (await jsonFormat.setup({}, testContext())).render(page())) as Extraction;
    expect(extraction).toEqual({
      url: 'https://harbour.example/news/tidal',
      metadata: expect.objectContaining({ title: 'Tidal power', description: 'Turbines.', language: 'en', statusCode: 200 }),
      content: {
        markdown:
          '# Tidal power\n\nTurbines on the [Firth](/wiki/Firth) turn with the **tide**.\n\n![Map](/media/map.png)\n\n[Elsewhere](https://other.example/) and [mail](mailto:a@b.example).',
        text: 'Tidal power\n\nTurbines on the Firth turn with the tide.\n\nElsewhere and mail.',
      },
      wordCount: 13,
      links: [
        { text: 'Firth', href: 'https://harbour.example/wiki/Firth' },
        { text: 'Elsewhere', href: 'https://other.example/' },
      ],
      assets: [
        { type: 'image', url: 'https://harbour.example/media/map.png', alt: 'Map' },
        { type: 'video', url: 'https://harbour.example/media/clip.mp4' },
      ],
    });
  });

  test('content equals what the markdown and text formats render, which it does not depend on', async () => {
    const ctx = testContext();
    const alone = (await (await jsonFormat.setup({}, ctx)).render(page())) as Extraction;
    const doc = page();
    expect(alone.content.markdown).toBe((await renderFormat('markdown', doc)) as string);
    expect(alone.content.text).toBe((await renderFormat('text', doc)) as string);
    expect(doc.outputs).toEqual({});
  });

  test('no content root: empty content, no links, no assets, the metadata still there', async () => {
    const doc = testDocument({ url: 'https://harbour.example/empty' });
    doc.metadata.title = 'Empty';
    const extraction = (await (await jsonFormat.setup({}, testContext())).render(doc)) as Extraction;
    expect(extraction).toMatchObject({
      content: { markdown: '', text: '' },
      wordCount: 0,
      links: [],
      assets: [],
      metadata: { title: 'Empty' },
    });
    expect(jsonFormat.provides).toEqual(['format:json']);
  });
});
