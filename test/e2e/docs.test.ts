/**
 * `/docs` and `/` end to end. In real Chromium (playwright-core, Debian's /usr/bin/chromium) the
 * reference renders from /openapi.json with no request leaving the server and no script or CSP
 * error: the side navigation lists the endpoint families and jumps to one, descriptions are
 * rendered markdown (code spans, no literal backticks), and "Try it out" on POST /v1/scrape with
 * the key entered through Authorize scrapes a fixture page, the answer shown in the page and the
 * screenshot showing content. Over HTTP: the assets' types and caching, public without a key;
 * `/` as a page of links for a browser and as JSON for an API client.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { inkOf, launchChromium } from '../helpers/chromium.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const KEY = 'docs-test-key-0123456789';

let site: FixtureSite;
let trawl: TestServer;
let browser: Browser;

beforeAll(async () => {
  site = startFixtureSite({
    '/harbour':
      '<!doctype html><html><head><title>Harbour notes</title></head><body><article><h1>Harbour notes</h1><p>The lighthouse keeper rings the bell at noon.</p></article></body></html>',
  });
  trawl = await startTrawlServer({ overrides: { apiKey: KEY } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([trawl.stop(), site.stop()]);
});

describe('/docs in Chromium', () => {
  test('navigation, rendered descriptions and a try-it call with the key, offline and within the CSP', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(trawl.url) && !request.url().startsWith(site.url)) problems.push(`left the server: ${request.url()}`);
    });

    const started = performance.now();
    await page.goto(`${trawl.url}/docs`);
    await page.locator('#families[data-ready="true"]').waitFor();
    await page.locator('#operations-Scrape-post_v1_scrape').waitFor();
    // For the record: how long the reference takes to render here (the bundle's parse dominates).
    console.log(`/docs rendered in ${Math.round(performance.now() - started)} ms`);

    // The side navigation: one link per endpoint family, and a link brings its group into view.
    const families = await page.locator('#families a').allTextContents();
    expect(families).toEqual(
      expect.arrayContaining(['Scrape', 'Crawl', 'Lead', 'Brand', 'Watch', 'Social', 'Service', 'Firecrawl v2 compatibility']),
    );
    await page.locator('#families a', { hasText: 'Social' }).click();
    await page.waitForFunction(() => {
      const top = document.getElementById('operations-tag-Social')?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight / 2;
    });
    expect(new URL(page.url()).hash).toBe('#/Social');

    // Descriptions are markdown rendered: code spans, no backticks left in the text.
    const intro = page.locator('.info .renderedMarkdown').first();
    expect(await intro.locator('code').first().textContent()).toBe('Authorization: Bearer <key>');
    expect(await intro.textContent()).not.toContain('`');

    // Try it out: the key through Authorize, then POST /v1/scrape of a fixture page.
    await page.locator('.scheme-container button.authorize').click();
    await page.locator('.auth-container input').fill(KEY);
    await page.locator('.auth-btn-wrapper button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').click();
    const operation = page.locator('#operations-Scrape-post_v1_scrape');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('textarea.body-param__text').fill(JSON.stringify({ url: site.at('/harbour'), formats: ['markdown'] }));
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table');
    const answer = live.locator('tbody tr.response').first();
    await answer.waitFor();
    expect((await answer.locator('.response-col_status').textContent())?.trim()).toBe('200');
    expect(await answer.locator('.response-col_description').textContent()).toContain('The lighthouse keeper rings the bell at noon.');
    // The example request names the key as the Authorization header (the curl snippet).
    expect(await operation.locator('.curl-command').textContent()).toContain(`Authorization: Bearer ${KEY}`);

    const { ink, colours } = await inkOf(await page.screenshot());
    expect(ink).toBeGreaterThan(0.05);
    expect(colours).toBeGreaterThan(8);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('/docs and / over HTTP', () => {
  test('the page and its assets are public, typed and cached by version; unknown assets are 404', async () => {
    const page = await fetch(`${trawl.url}/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(html).not.toContain('<script>');
    const assets = [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((path) => path.split('/').pop())).toEqual([
      'favicon.png',
      'swagger-ui.css',
      'docs.css',
      'swagger-ui-bundle.js',
      'docs.js',
    ]);
    const types: Record<string, string> = { png: 'image/png', css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };
    for (const path of assets) {
      const res = await fetch(`${trawl.url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      const type = types[path.split('.').pop()!] ?? 'a listed type';
      expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
        200,
        type,
        'public, max-age=31536000, immutable',
      ]);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      const again = await fetch(`${trawl.url}${path}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    const bundle = assets.find((path) => path.endsWith('swagger-ui-bundle.js'))!;
    const stale = bundle.replace(/assets\/[^/]+\//, 'assets/000000000000/');
    for (const path of [
      stale,
      bundle.replace('swagger-ui-bundle.js', 'package.json'),
      bundle.replace('swagger-ui-bundle.js', '..%2Fpackage.json'),
    ]) {
      expect((await trawl.get(path)).status).toBe(404);
    }
  });

  test('/ is a page of links for a browser and JSON for an API client, without a key', async () => {
    const browserAnswer = await fetch(`${trawl.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    const html = await browserAnswer.text();
    expect([browserAnswer.status, browserAnswer.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    for (const link of ['href="/docs"', 'href="/dashboard"', 'href="/account"', 'href="/openapi.json"']) expect(html).toContain(link);
    expect(html).not.toContain('<script');
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await trawl.get('/', accept ? { accept } : {});
      expect([res.status, res.body]).toEqual([
        200,
        {
          name: 'Trawl',
          version: trawl.trawl.version,
          links: { docs: '/docs', openapi: '/openapi.json', dashboard: '/dashboard', account: '/account', health: '/health', mcp: '/mcp' },
        },
      ]);
    }
    // Other methods on / are still unknown paths.
    expect((await trawl.post('/', {}, { authorization: `Bearer ${KEY}` })).status).toBe(404);
  });
});
