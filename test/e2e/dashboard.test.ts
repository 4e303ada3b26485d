/**
 * The dashboard in real Chromium (playwright-core, Debian's /usr/bin/chromium): the key is asked
 * once and kept, a watch is created from the form, its timeline shows the first snapshot, a
 * "Check now" after the page changed adds a `changed` snapshot, the diff between the two shows the
 * edit, and pause works. The screenshot must show content (not a blank page) and the DOM the texts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { inkOf, launchChromium } from '../helpers/chromium.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const KEY = 'dashboard-test-key-0123456789';
let sentence = 'The ferry to the island leaves every morning at seven.';

describe('dashboard in Chromium', () => {
  let site: FixtureSite;
  let trawl: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    site = startFixtureSite({
      '/ferry': () => new Response(`<html><head><title>Ferry times</title></head><body><main><h1>Ferry times</h1><p>${sentence}</p><p>Tickets are sold at the harbour office and on board.</p></main></body></html>`, { headers: { 'content-type': 'text/html' } }),
    });
    trawl = await startTrawlServer({ overrides: { apiKey: KEY, jobs: { pollIntervalMs: 50 } } });
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([trawl.stop(), site.stop()]);
  });

  test('key once, create, timeline, check, diff, pause — and a screenshot with content', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${trawl.url}/dashboard`);
    await page.locator('#key-form').waitFor({ state: 'visible' });
    await page.fill('#key', KEY);
    await page.click('#key-form button');
    await page.locator('#watch-count').filter({ hasText: '0 watches' }).waitFor();

    await page.fill('#new-url', site.at('/ferry'));
    await page.fill('#new-name', 'Island ferry');
    await page.fill('#new-interval', '120');
    await page.click('#create-form button');
    await page.locator('#watch-rows a', { hasText: 'Island ferry' }).waitFor();
    const listed = await trawl.get('/v1/watch', { authorization: `Bearer ${KEY}` });
    expect(listed.body.watches).toMatchObject([{ name: 'Island ferry', url: site.at('/ferry'), interval_minutes: 120 }]);

    // The first check runs in the background; open the watch once it has its snapshot.
    const id = listed.body.watches[0].id;
    for (let i = 0; i < 100 && (await trawl.get(`/v1/watch/${id}`, { authorization: `Bearer ${KEY}` })).body.snapshots.length === 0; i++) await Bun.sleep(50);
    await page.click('#watch-rows a');
    await page.locator('#timeline-rows .badge.initial').waitFor();

    sentence = 'The ferry to the island leaves every morning at eight.';
    await page.click('#watch-rows button:text("Check now")');
    await page.locator('#timeline-rows .badge.changed').waitFor({ timeout: 20_000 });
    await page.locator('#diff .add').first().waitFor();
    expect(await page.locator('#diff .add').allTextContents()).toContain('The ferry to the island leaves every morning at eight.');
    expect(await page.locator('#diff .del').allTextContents()).toContain('The ferry to the island leaves every morning at seven.');
    expect(await page.textContent('#diff-summary')).toContain('1 line added and 1 removed');

    await page.click('#watch-rows button:text("Pause")');
    await page.locator('#watch-rows .badge.paused').waitFor();
    expect((await trawl.get(`/v1/watch/${id}`, { authorization: `Bearer ${KEY}` })).body.active).toBe(false);

    // The key is remembered: a reload goes straight to the list.
    await page.reload();
    await page.locator('#watch-rows a', { hasText: 'Island ferry' }).waitFor();
    expect(await page.isVisible('#key-form')).toBe(false);

    await page.click('#watch-rows a');
    await page.locator('#diff .add').first().waitFor();
    for (const text of ['Island ferry', 'Timeline of', 'changed', 'initial', 'leaves every morning at eight.']) {
      expect(await page.getByText(text, { exact: false }).first().isVisible()).toBe(true);
    }
    const shot = await page.screenshot({ fullPage: true });
    const { ink, colours } = await inkOf(shot);
    expect(ink).toBeGreaterThan(0.03);
    expect(colours).toBeGreaterThan(8);
    expect(errors).toEqual([]);
  }, 60_000);

  test('without a key the API calls answer 401 and the page asks for the key', async () => {
    const page = await browser.newPage();
    await page.goto(`${trawl.url}/dashboard`);
    await page.locator('#key-form').waitFor({ state: 'visible' });
    expect(await page.isVisible('#app')).toBe(false);
    for (const [method, path] of [['GET', '/v1/watch'], ['POST', '/v1/watch'], ['GET', '/v1/watch/x'], ['PATCH', '/v1/watch/x'], ['DELETE', '/v1/watch/x'], ['POST', '/v1/watch/x/check'], ['POST', '/v1/diff']]) {
      expect(await trawl.call(path!, { method: method!, ...(method === 'GET' ? {} : { body: {} }) })).toMatchObject({ status: 401, body: { error: 'Invalid or missing API key' } });
    }
    const response = await page.request.get(`${trawl.url}/dashboard`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'nonce-");
  });
});
