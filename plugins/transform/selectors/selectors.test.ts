// Selectors transform: exclusion, inclusion in document order, and the 400 for bad selectors.
import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument, TrawlError } from '../../../core/kit.ts';
import { snakeFieldName, testContext, testDocument } from '../../../core/testing.ts';
import { selectorsTransform } from './selectors.ts';

const PAGE = `<!doctype html><html><body>
<nav><a href="/">Home</a></nav>
<main>
  <article class="post" id="p1"><h2>First</h2><p class="ad">Buy now</p><p>One</p></article>
  <aside class="related"><p>Related</p></aside>
  <article class="post" id="p2"><h2>Second</h2><div class="note"><p>Two</p></div></article>
</main>
<footer><p>Footer</p></footer>
</body></html>`;

async function run(request: Record<string, unknown>, page = PAGE) {
  const handler = await selectorsTransform.setup({}, testContext());
  const doc = testDocument({ url: 'https://example.com/', ...request });
  doc.dom = parseHtmlDocument(page);
  doc.root = doc.dom.body;
  await handler.apply(doc);
  return doc;
}

const squeeze = (html: string) => html.replace(/>\s+</g, '><').trim();

describe('exclude_selectors', () => {
  test('removes every match of every selector', async () => {
    const doc = await run({ excludeSelectors: ['nav', 'footer', '.ad, aside'] });
    expect(squeeze(doc.root!.innerHTML)).toBe(
      '<main><article class="post" id="p1"><h2>First</h2><p>One</p></article><article class="post" id="p2"><h2>Second</h2><div class="note"><p>Two</p></div></article></main>',
    );
  });
});

describe('include_selectors', () => {
  const TIMETABLE =
    '<table><tbody><tr><th>Leith</th><td class="dep">09:12</td><td class="dep">09:40</td></tr><tr><th>Kirkwall</th><td class="dep">10:05</td></tr></tbody></table>';

  test('a selected cell or row keeps the table around it, so the formats still see a table', async () => {
    const cells = await run({ includeSelectors: ['td.dep'] }, TIMETABLE);
    expect(squeeze(cells.root!.innerHTML)).toBe(
      '<table><tbody><tr><td class="dep">09:12</td><td class="dep">09:40</td></tr></tbody></table><table><tbody><tr><td class="dep">10:05</td></tr></tbody></table>',
    );
    const rows = await run({ includeSelectors: ['tr'] }, TIMETABLE);
    expect(squeeze(rows.root!.innerHTML)).toBe(`<table>${squeeze(TIMETABLE).slice('<table>'.length, -'</table>'.length)}</table>`);
  });

  test('the content becomes the matches in document order, whatever the selector order', async () => {
    const doc = await run({ includeSelectors: ['#p2', 'nav', '#p1 h2'] });
    expect(squeeze(doc.root!.innerHTML)).toBe(
      '<nav><a href="/">Home</a></nav><h2>First</h2><article class="post" id="p2"><h2>Second</h2><div class="note"><p>Two</p></div></article>',
    );
  });

  test('nested matches appear once, inside their outer match', async () => {
    const doc = await run({ includeSelectors: ['.post', '.note', 'h2'] });
    expect(doc.root!.querySelectorAll('.note')).toHaveLength(1);
    expect(doc.root!.querySelectorAll('h2')).toHaveLength(2);
    expect([...doc.root!.children].map((c) => c.id)).toEqual(['p1', 'p2']);
  });

  test('exclusions apply before inclusion, and the full page stays intact for whole-page formats', async () => {
    const doc = await run({ includeSelectors: ['article'], excludeSelectors: ['.ad'] });
    expect(doc.root!.querySelector('.ad')).toBeNull();
    expect(doc.root!.parentElement).toBeNull();
    expect(doc.dom!.querySelector('nav')).not.toBeNull();
    expect(doc.dom!.querySelectorAll('article')).toHaveLength(2);
  });

  test('no match: empty content and a warning', async () => {
    const doc = await run({ includeSelectors: ['.does-not-exist'] });
    expect(doc.root!.innerHTML).toBe('');
    expect(doc.messages).toEqual([
      {
        level: 'warning',
        stage: 'transform',
        plugin: 'transform.selectors',
        message: 'include_selectors matched nothing; the content is empty',
      },
    ]);
  });

  test('no selectors: nothing changes', async () => {
    const doc = await run({});
    expect(doc.root).toBe(doc.dom!.body);
    expect(doc.root!.querySelectorAll('article')).toHaveLength(2);
  });
});

describe('invalid selectors', () => {
  test('linkedom throws on malformed selectors (the check relies on it)', () => {
    const body = parseHtmlDocument('<p>x</p>').body;
    for (const bad of ['div[', 'p:nth-child(', 'a:unknown-pseudo', 'p,', '##']) expect(() => body.querySelector(bad)).toThrow();
  });

  test('a bad include selector is a 400 naming the field and index, before the page is touched', async () => {
    const error = await run({ excludeSelectors: ['nav'], includeSelectors: ['main', 'div['] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrawlError);
    expect((error as TrawlError).status).toBe(400);
    expect((error as TrawlError).message).toBe('Invalid field includeSelectors[1]: invalid CSS selector "div["');
  });

  test('validate refuses bad selectors before anything is fetched, naming the field as the caller does', async () => {
    const handler = await selectorsTransform.setup({}, testContext());
    const bad = testDocument({ url: 'https://example.com/', excludeSelectors: ['nav'], includeSelectors: ['main', 'div['] }).job;
    expect(handler.validate!(bad, snakeFieldName)).toBe('Invalid field include_selectors[1]: invalid CSS selector "div["');
    expect(handler.validate!(testDocument({ url: 'https://example.com/', excludeSelectors: ['p >'] }).job, (p) => p)).toBe(
      'Invalid field excludeSelectors[0]: invalid CSS selector "p >"',
    );
    expect(handler.validate!(testDocument({ url: 'https://example.com/', includeSelectors: ['main'] }).job, snakeFieldName)).toBeNull();
  });

  test('exclude selectors are checked too, and dangling combinators count as invalid', async () => {
    const error = await run({ excludeSelectors: ['p', 'div >'] }).catch((e: unknown) => e);
    expect((error as TrawlError).message).toBe('Invalid field excludeSelectors[1]: invalid CSS selector "div >"');
  });
});
