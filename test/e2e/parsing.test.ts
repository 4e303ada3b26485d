/**
 * End to end: pages a browser shows in full, whatever their markup leaves out or breaks, come back
 * with their text through POST /v1/scrape, with only_main_content off and on. Valid HTML5 that
 * omits the optional `<html>`, `<head>` or `<body>` tags; a `<title>` whose `<head>` is implied
 * stays out of the body; damaged heads (a stray `</i>` inside a `<meta>`, a tag cut short) still
 * give the body; `<noscript>` content is read as a browser without scripts shows it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const TITLE = 'Harbour timetable';
const HEADING = 'Ferry times';
const BODY = 'The morning ferry leaves the north pier at seven, and the last one returns from the island at nine in the evening.';
const MORE = 'Tickets are sold on board; bicycles travel free, and dogs on a lead are welcome on the open deck.';
const content = `<h1>${HEADING}</h1><p>${BODY}</p><p>${MORE}</p>`;

const PAGES: Record<string, string> = {
  // valid HTML5: every one of these tags is optional
  '/no-body-tag': `<!doctype html><title>${TITLE}</title>${content}`,
  '/head-but-no-body-tag': `<!doctype html><html><head><title>${TITLE}</title></head>${content}</html>`,
  '/no-head-tag': `<!doctype html><html><title>${TITLE}</title><body>${content}</body></html>`,
  '/nothing-but-content': content,
  // damaged markup from old pages
  '/stray-end-tag-in-meta': `<html><head><title>${TITLE}</title><meta name="description" content="Sailings for the week"</i>></head><body>${content}</body></html>`,
  '/tag-cut-short': `<html><head><title>${TITLE}</title><meta name="author" content="Harbour office"<body>${content}</body></html>`,
  '/cut-off-at-the-end': `<html><head><title>${TITLE}</title></head><body>${content}<p>Timetable changes are posted <a href="/changes"`,
  '/script-before-html': `<script>var consent = false;</script><!doctype html><html><head><title>${TITLE}</title></head><body>${content}</body></html>`,
};

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = startFixtureSite({
    ...PAGES,
    '/noscript-in-head': `<!doctype html><html><head><title>${TITLE}</title><noscript><img src="/pixel.gif" width="1" height="1"></noscript><meta name="description" content="Sailings"></head><body>${content}</body></html>`,
    '/posts-in-noscript': `<!doctype html><html><head><title>${TITLE}</title></head><body><div id="app"></div><noscript><article><h1>${HEADING}</h1><p>${BODY}</p><p>${MORE}</p></article></noscript></body></html>`,
  });
  server = await startTrawlServer({ overrides: { storage: { cacheTtlSeconds: 0 } } });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

const scrape = (path: string, onlyMainContent: boolean) =>
  server.post('/v1/scrape', { url: site.at(path), formats: ['markdown', 'text'], only_main_content: onlyMainContent });

for (const onlyMainContent of [false, true]) {
  describe(`only_main_content: ${onlyMainContent}`, () => {
    for (const path of Object.keys(PAGES)) {
      test(`${path.slice(1).replace(/-/g, ' ')}: the body's text and markdown, without the title`, async () => {
        const res = await scrape(path, onlyMainContent);
        expect(res.status).toBe(200);
        const { text, markdown } = res.body as { text: string; markdown: string };
        for (const words of [BODY, MORE]) {
          expect(text).toContain(words);
          expect(markdown).toContain(words);
        }
        expect(markdown).toContain(`# ${HEADING}`);
        if (path !== '/nothing-but-content') {
          expect(text).not.toContain(TITLE);
          expect(res.body.metadata.title).toBe(TITLE);
        }
      });
    }

    test('a <noscript> image in <head> does not end the head: the title stays metadata', async () => {
      const res = await scrape('/noscript-in-head', onlyMainContent);
      expect(res.status).toBe(200);
      expect(res.body.text).not.toContain(TITLE);
      expect(res.body.text).toContain(BODY);
      expect(res.body.metadata).toMatchObject({ title: TITLE, description: 'Sailings' });
    });

    test('a page whose content lives in <noscript> (forum software) gives that content', async () => {
      const res = await scrape('/posts-in-noscript', onlyMainContent);
      expect(res.status).toBe(200);
      expect(res.body.text).toContain(BODY);
      expect(res.body.markdown).toContain(`# ${HEADING}`);
      expect(res.body.markdown).not.toContain('<p>');
    });
  });
}
