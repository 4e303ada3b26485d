/**
 * End to end with real Chromium: a server on 127.0.0.1 rendering a fixture site — script-rendered
 * content in every format, automatic rendering of app shells (and opting out), full-page
 * screenshots, mobile emulation, the SSRF guard on the page itself, pages that hang, and a server
 * without Chromium that still serves everything else.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { pngSize, requireChromium } from '../../core/browser/testing.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const fixture = (name: string) => Bun.file(new URL(`../fixtures/browser/${name}`, import.meta.url)).text();
const png = (base64: string) => pngSize(new Uint8Array(Buffer.from(base64, 'base64')));
let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  requireChromium();
  site = startFixtureSite({
    '/spa': await fixture('spa.html'),
    '/static/app.js': { body: await fixture('app.js'), headers: { 'content-type': 'text/javascript' } },
    '/api/story.json': () =>
      Response.json({
        title: 'Spring tides at the harbour',
        paragraphs: ['High water comes at 06:12 and again at 18:40.', 'The new moon makes this week’s tides the largest of the month.'],
      }),
    '/tall': await fixture('tall.html'),
    '/viewport': await fixture('viewport.html'),
    '/hang': { body: '<p>too late</p>', delayMs: 20_000 },
    '/busy': '<p>start</p><script>for (;;) {}</script>',
    '/plain': '<html><head><title>Plain</title></head><body><p>Nothing to render here.</p></body></html>',
  });
  server = await startTrawlServer({ overrides: { storage: { cacheTtlSeconds: 0 } } });
});
afterAll(async () => {
  await server?.stop();
  await site?.stop();
});

describe('rendering', () => {
  test('content rendered by script appears in every format', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/spa'), render: true, formats: ['markdown', 'text', 'links', 'rawHtml'] });
    expect(res.status).toBe(200);
    expect(res.body.markdown).toContain('# Spring tides at the harbour');
    expect(res.body.markdown).toContain('High water comes at 06:12 and again at 18:40.');
    expect(res.body.text).toContain('The new moon makes this week’s tides the largest of the month.');
    expect(res.body.links).toContainEqual({ text: "Tomorrow's tides", href: site.at('/tides/tomorrow') });
    expect(res.body.rawHtml).toContain('<h1>Spring tides at the harbour</h1>');
    expect(res.body.metadata).toMatchObject({
      title: 'Tide Tables',
      description: 'Tide times for the harbour, rendered in the browser.',
      language: 'en',
      status_code: 200,
      rendered: true,
    });
    expect(res.body.metadata.word_count).toBeGreaterThan(20);
  });

  test('an app shell is rendered automatically; render: false keeps the plain fetch', async () => {
    const auto = await server.post('/v1/scrape', { url: site.at('/spa') });
    expect(auto.status).toBe(200);
    expect(auto.body.markdown).toContain('# Spring tides at the harbour');
    expect(auto.body.metadata.rendered).toBe(true);
    expect(auto.headers.get('server-timing')).toContain('refetch;dur=');
    const plain = await server.post('/v1/scrape', { url: site.at('/spa'), render: false });
    expect(plain.status).toBe(200);
    expect(plain.body.markdown).not.toContain('Spring tides');
    expect(plain.body.metadata.rendered).toBeUndefined();
  });

  test('a static page is not rendered', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/plain') });
    expect(res.body.markdown).toBe('Nothing to render here.');
    expect(res.body.metadata.rendered).toBeUndefined();
    expect(res.headers.get('server-timing')).not.toContain('refetch');
  });
});

describe('screenshots and mobile', () => {
  test('screenshot: true and the screenshot format give a full-page PNG taller than the viewport', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/tall'), screenshot: true, formats: ['markdown', 'screenshot'] });
    expect(res.status).toBe(200);
    const size = png(res.body.screenshot);
    expect(size.width).toBe(1280);
    expect(size.height).toBeGreaterThan(2600);
    expect(res.body.markdown).toContain('The end of the coast.');
    const formatOnly = await server.post('/v1/scrape', { url: site.at('/tall'), formats: ['screenshot'] });
    expect(Object.keys(formatOnly.body).sort()).toEqual(['metadata', 'screenshot', 'url']);
    expect(png(formatOnly.body.screenshot).height).toBe(size.height);
  });

  test('mobile: the page sees a phone viewport, touch and a mobile user agent', async () => {
    const phone = await server.post('/v1/scrape', { url: site.at('/viewport'), mobile: true, formats: ['text'] });
    expect(phone.body.text).toContain('Viewport width: 412px. Touch: yes. Mobile user agent: yes.');
    const desktop = await server.post('/v1/scrape', { url: site.at('/viewport'), render: true, formats: ['text'] });
    expect(desktop.body.text).toContain('Viewport width: 1280px. Touch: no. Mobile user agent: no.');
  });
});

describe('limits and guards', () => {
  test('a page that never answers, and one whose script never ends, hit the timeout; later jobs work', async () => {
    for (const path of ['/hang', '/busy']) {
      const res = await server.post('/v1/scrape', { url: site.at(path), render: true, timeout: 2000 });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'Scrape timed out after 2000 ms' });
    }
    const after = await server.post('/v1/scrape', { url: site.at('/viewport'), render: true, formats: ['text'] });
    expect(after.status).toBe(200);
  });

  test('with the SSRF guard on, the browser refuses an internal page', async () => {
    const guarded = await startTrawlServer({ overrides: { fetch: { allowPrivateNetwork: false } } });
    try {
      const hitsBefore = site.hits.length;
      // Self-hosted, the refusal of the page itself names the setting that allows it.
      const refusal = {
        error:
          'Failed to fetch URL: address 127.0.0.1 is not allowed (loopback address); set fetch.allowPrivateNetwork = true (or TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true) to allow private addresses',
      };
      const res = await guarded.post('/v1/scrape', { url: site.at('/viewport'), render: true });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refusal);
      // Credentials in the URL do not hide the refusal (the browser drops them from the request).
      const withUserinfo = await guarded.post('/v1/scrape', { url: site.at('/viewport').replace('http://', 'http://a:b@'), render: true });
      expect(withUserinfo.status).toBe(422);
      expect(withUserinfo.body).toEqual(refusal);
      expect(site.hits.length).toBe(hitsBefore);
    } finally {
      await guarded.stop();
    }
  });

  test('without Chromium, browser requests say how to install it and everything else works', async () => {
    const bare = await startTrawlServer({ overrides: { browser: { executablePath: '/nonexistent/chromium' } } });
    try {
      const res = await bare.post('/v1/scrape', { url: site.at('/spa'), screenshot: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('apt-get install -y chromium');
      const plain = await bare.post('/v1/scrape', { url: site.at('/plain') });
      expect(plain.status).toBe(200);
      expect(plain.body.markdown).toBe('Nothing to render here.');
      const shell = await bare.post('/v1/scrape', { url: site.at('/spa') });
      expect(shell.status).toBe(200);
      expect(shell.body.metadata.rendered).toBeUndefined();
    } finally {
      await bare.stop();
    }
  });
});
