/**
 * End to end: hostile and broken pages through POST /v1/scrape, with only_main_content off and
 * on, every text format at once. Each answers a result or a clear 422 within the scrape time
 * limit; the server stays up and memory stays bounded. The page cases: empty documents, pages of
 * nothing but scripts, a 10 MB page, 10,000 levels of nesting (closed and unclosed), broken
 * markup, binary bodies served as text/html, and a body over the fetch cap.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const FORMATS = ['markdown', 'text', 'links', 'json', 'llm', 'rawHtml'];
const TEN_MB = 10 * 1024 * 1024;
/** The answer to a 10 MB page holds it several times over (markdown, text, json, llm, rawHtml). */
const SLOW = 180_000;

/** A long, realistic article: headings, linked and tracked URLs, images, lists and tables, to `bytes`. */
function bigArticle(bytes: number): string {
  const section = (i: number) =>
    `<h2>Section ${i}</h2><p>Paragraph ${i} links to <a href="/p/${i}?utm_source=feed">page ${i}</a> with <strong>bold</strong> text ` +
    `and a figure <img src="/img/${i}.jpg" alt="Figure ${i}">. ${'Tidal turbines turn with the ebb and flood of the sea. '.repeat(8)}</p>` +
    `<ul><li>First point ${i}</li><li>Second point</li></ul><table><tr><th>Year</th><th>Output</th></tr><tr><td>${2000 + (i % 25)}</td><td>${i}</td></tr></table>\n`;
  const parts = [
    '<!doctype html><html lang="en"><head><title>The long report</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><article><h1>The long report</h1>',
  ];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const s = section(i);
    parts.push(s);
    size += s.length;
  }
  parts.push('<p>End of the long report.</p></article></main><footer>© Harbour Post</footer></body></html>');
  return parts.join('');
}

const SCRIPTS_ONLY =
  '<!doctype html><html><head><script>window.dataLayer = [{ event: "pageview" }];</script><script src="/app.js"></script></head>' +
  `<body><script type="application/json" id="state">{"secret":"state blob"}</script><script>${'document.write("tracking");'.repeat(2000)}</script><noscript><img src="/pixel.gif" width="1" height="1"></noscript></body></html>`;

const BROKEN = `<html><head><title>Broken page</title><body>
<p>Unclosed paragraph <b>bold <i>both</b> italic</i>
<div><table><p>Loose text in a table<tr><td>cell one<td>cell two</table></span></div></div></div></div>
<ul><li>item one<li>item two</ul>
<a href="/next">an unclosed link <p>that swallows a paragraph
<img src="/i.png" alt="x" <p>attribute garbage</p>
</html></body><p>after the end</p>
<!-- an unterminated comment <p>never shown`;

const DEEP = `<html><head><title>Deep</title></head><body>${'<div>'.repeat(10_000)}<p>Text at the bottom of the well.</p>${'</div>'.repeat(10_000)}</body></html>`;
const DEEP_UNCLOSED = `<html><body>${'<div><span><b><i>'.repeat(2_500)}Text under ten thousand unclosed tags</body></html>`;

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);
const NOISE = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919 + (i >> 5) * 104729) % 256);

let site: FixtureSite;
let server: TestServer;
let big: string;

beforeAll(async () => {
  big = bigArticle(TEN_MB);
  site = startFixtureSite({
    '/empty': '',
    '/blank': { body: '<!DOCTYPE html>\n  \n', headers: { 'content-type': 'text/html' } },
    '/scripts': SCRIPTS_ONLY,
    '/big': big,
    '/deep': DEEP,
    '/deep-unclosed': DEEP_UNCLOSED,
    '/broken': BROKEN,
    '/png': { body: PNG, headers: { 'content-type': 'text/html; charset=utf-8' } },
    '/noise': { body: NOISE, headers: { 'content-type': 'text/html' } },
    '/huge': () => new Response('<p>x</p>'.repeat(2_700_000), { headers: { 'content-type': 'text/html' } }),
  });
  server = await startTrawlServer({ overrides: { storage: { cacheTtlSeconds: 0 } } });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

const scrape = (path: string, onlyMainContent: boolean) =>
  server.post('/v1/scrape', { url: site.at(path), formats: FORMATS, only_main_content: onlyMainContent, no_cache: true });

/** Every requested format is in the answer, nothing failed (only the expected warnings), and the llm header names the page. */
function expectWholeResult(body: any, path: string, warnings?: string[]): void {
  for (const field of ['markdown', 'text', 'links', 'extraction', 'llm', 'rawHtml']) expect(body).toHaveProperty(field);
  expect(body.warnings).toEqual(warnings);
  expect(body.llm.startsWith(`URL: ${site.at(path)}`)).toBe(true);
  expect(body.extraction.content.markdown).toBe(body.markdown);
  expect(body.extraction.word_count).toBe(body.metadata.word_count);
}

for (const onlyMainContent of [false, true]) {
  describe(`only_main_content: ${onlyMainContent}`, () => {
    test('empty documents: a result with empty content', async () => {
      for (const path of ['/empty', '/blank']) {
        const res = await scrape(path, onlyMainContent);
        expect(res.status).toBe(200);
        expectWholeResult(res.body, path);
        expect(res.body).toMatchObject({ markdown: '', text: '', links: [], llm: `URL: ${site.at(path)}` });
        expect(res.body.extraction).toMatchObject({ content: { markdown: '', text: '' }, word_count: 0, links: [], assets: [] });
        expect(res.body.metadata.word_count).toBe(0);
      }
    });

    test('a page of nothing but scripts: empty content, no script text in any format', async () => {
      const res = await scrape('/scripts', onlyMainContent);
      expect(res.status).toBe(200);
      expectWholeResult(res.body, '/scripts');
      expect(res.body.markdown).toBe('');
      expect(res.body.text).toBe('');
      expect(JSON.stringify([res.body.llm, res.body.extraction])).not.toMatch(/dataLayer|tracking|state blob|pixel/);
      expect(res.body.rawHtml).toBe(SCRIPTS_ONLY);
    });

    test(
      'a 10 MB page: the whole content, within the time limit, in bounded memory',
      async () => {
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().rss);
        }, 25);
        const res = await scrape('/big', onlyMainContent).finally(() => clearInterval(sampler));
        expect(res.status).toBe(200);
        expectWholeResult(res.body, '/big');
        expect(res.body.rawHtml.length).toBe(big.length);
        // Booleans, not toContain: a failure must not print ten megabytes.
        for (const format of ['markdown', 'text', 'llm']) {
          expect(res.body[format].includes('Section 0')).toBe(true);
          expect(res.body[format].includes('End of the long report.')).toBe(true);
        }
        expect(res.body.markdown.includes('utm_source')).toBe(false);
        expect(res.body.metadata.word_count).toBeGreaterThan(1_000_000);
        expect(res.body.extraction.assets.length).toBeGreaterThan(10_000);
        // Measured at about 1.3 GB over the baseline for this page with every format; a runaway
        // (quadratic strings, a copy per node) would blow well past this ceiling.
        expect(peak - before).toBeLessThan(3 * 1024 ** 3);
      },
      SLOW,
    );

    test(
      '10,000 levels of nesting, closed or never closed: the text at the bottom comes through, the depth limit is named',
      async () => {
        for (const [path, text] of [
          ['/deep', 'Text at the bottom of the well.'],
          ['/deep-unclosed', 'Text under ten thousand unclosed tags'],
        ] as const) {
          const res = await scrape(path, onlyMainContent);
          expect(res.status).toBe(200);
          expectWholeResult(res.body, path, [
            'document.html: The page nests elements more than 1000 deep; what is deeper is kept as plain text',
          ]);
          for (const format of ['markdown', 'text', 'llm']) expect(res.body[format]).toContain(text);
        }
      },
      SLOW,
    );

    test('broken markup: what a browser would show', async () => {
      const res = await scrape('/broken', onlyMainContent);
      expect(res.status).toBe(200);
      expectWholeResult(res.body, '/broken');
      for (const words of ['Unclosed paragraph', 'bold both italic', 'cell one', 'item two', 'that swallows a paragraph'])
        expect(res.body.text).toContain(words);
      expect(res.body.text).not.toContain('never shown');
    });

    test('binary served as text/html: a 422 naming what the body is', async () => {
      const png = await scrape('/png', onlyMainContent);
      expect(png.status).toBe(422);
      expect(png.body).toEqual({ error: 'Unsupported content: the body is binary (PNG), not text/html' });
      const noise = await scrape('/noise', onlyMainContent);
      expect(noise.status).toBe(422);
      expect(noise.body).toEqual({ error: 'Unsupported content: the body is binary, not text/html' });
    });
  });
}

test(
  'a body over the fetch cap is refused before it is parsed, and the server still answers',
  async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/huge'), formats: ['markdown'] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^Failed to fetch URL: response body exceeds \d+ bytes$/);
    const after = await server.post('/v1/scrape', { url: site.at('/broken'), formats: ['text'] });
    expect(after.status).toBe(200);
  },
  SLOW,
);
