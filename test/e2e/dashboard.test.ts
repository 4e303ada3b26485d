/**
 * The dashboard in real Chromium (playwright-core, Debian's /usr/bin/chromium). A first visit shows
 * the key form and no error; then a watch is created with a selector picked on the page's preview
 * and a number condition, edited, tagged, found by search and by tag, its page changes and the word
 * diff shows side by side and inline, and its notification target's delivery is shown; another is
 * deleted after a confirmation; watches are exported
 * and imported; the feed address is made and revoked from the page. Screenshots at 1280 and 420 px
 * (test/output/dashboard/) must show content, and at 420 px nothing may reach past the screen.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { inkOf, launchChromium } from '../helpers/chromium.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const KEY = 'dashboard-test-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
const SHOTS = 'test/output/dashboard';
let departure = '09:12';

const timetable = () => `<html><head><title>Leith ferry</title></head><body><main><h1>Leith ferry</h1>
<section><h2>Today</h2><p class="dep">Leaves Leith harbour at ${departure} from pier two</p><p>Calls at Burntisland on request.</p></section>
<p>Fare: <span id="fare">14.50</span> GBP. Tickets are sold at the harbour office and on board.</p></main></body></html>`;

async function enterKey(page: Page) {
  await page.locator('#key-form').waitFor({ state: 'visible' });
  await page.fill('#key', KEY);
  await page.click('#key-form button');
  await page.locator('#app').waitFor({ state: 'visible' });
}

/** Elements (visible ones) whose right edge lies beyond the viewport, by tag, id and class. */
const spilling = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > width + 1 && !e.closest('[hidden]');
      })
      .map((e) => `${e.localName}#${e.id}.${e.className}`);
  });

async function checkShot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const shot = await page.screenshot({ fullPage: true, path: `${SHOTS}/${name}.png` });
  const { ink, colours } = await inkOf(shot);
  expect(ink).toBeGreaterThan(0.03);
  expect(colours).toBeGreaterThan(8);
}

describe('dashboard in Chromium', () => {
  let site: FixtureSite;
  let trawl: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    site = startFixtureSite({
      '/timetable': () => new Response(timetable(), { headers: { 'content-type': 'text/html' } }),
      '/hook': () => new Response(null, { status: 204 }),
      '/news': () =>
        new Response(
          '<html><head><title>Harbour news</title></head><body><main><h1>Harbour news</h1><p>The harbour office opens a new waiting room next spring for ferry passengers.</p></main></body></html>',
          { headers: { 'content-type': 'text/html' } },
        ),
    });
    trawl = await startTrawlServer({ overrides: { apiKey: KEY, jobs: { pollIntervalMs: 50 } } });
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([trawl.stop(), site.stop()]);
  });

  test('first load: the key form, quietly; the page is served with a strict CSP', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${trawl.url}/dashboard`);
    await page.locator('#key-form').waitFor({ state: 'visible' });
    expect(await page.isVisible('#app')).toBe(false);
    expect(await page.textContent('#message')).toBe('');
    expect(await page.locator('.err:visible').count()).toBe(0);
    expect(await page.getByText('Invalid or missing API key').count()).toBe(0);
    // A wrong key is said once a key was typed.
    await page.fill('#key', 'not-the-key');
    await page.click('#key-form button');
    await page.locator('#key-error', { hasText: 'Invalid or missing API key' }).waitFor();
    const csp = (await page.request.get(`${trawl.url}/dashboard`)).headers()['content-security-policy']!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect((await page.request.get(`${trawl.url}/dashboard/assets/main.js`)).headers()['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await page.request.get(`${trawl.url}/dashboard/assets/nope.js`)).status()).toBe(404);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('create with a picked selector and a condition, edit, tag, search, diff, delete, export, import, feed', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true } as never);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${trawl.url}/dashboard`);
    await enterKey(page);
    await page.locator('#watch-count', { hasText: '0 watches' }).waitFor();

    // Create: the selector comes from a click on the page's preview; a condition row is added.
    await page.click('#new-watch');
    await page.fill('#f-url', site.at('/timetable'));
    await page.fill('#f-name', 'Island ferry');
    await page.fill('#f-interval', '120');
    await page.fill('#f-tags', 'ferries, scotland');
    await page.click('#pick-open');
    await page.frameLocator('#pick-frame').locator('p.dep').click();
    await page.locator('#pick-selector', { hasText: 'p' }).waitFor();
    const picked = (await page.inputValue('#f-include')).trim();
    expect(await page.frameLocator('#pick-frame').locator(picked).count()).toBe(1);
    await page.click('#add-condition');
    await page.fill('#conditions input[name=selector]', '#fare');
    await page.fill('#conditions input[name=above]', '20');
    await page.fill('#f-notify', site.at('/hook'));
    await page.click('#save-watch');
    await page.locator('#watch-rows a', { hasText: 'Island ferry' }).waitFor();
    const listed = (await trawl.get('/v1/watch', auth)).body.watches;
    expect(listed).toMatchObject([
      {
        name: 'Island ferry',
        url: site.at('/timetable'),
        interval_minutes: 120,
        tags: ['ferries', 'scotland'],
        include_selectors: [picked],
        conditions: [{ selector: '#fare', above: 20 }],
        notify: [site.at('/hook')],
      },
    ]);
    const id = listed[0].id;

    // Edit: rename, a tag more, no condition (so any change notifies), the clock preset off.
    await page.click('#watch-rows button:text("Edit")');
    await page.locator('#f-name').waitFor({ state: 'visible' });
    expect(await page.inputValue('#f-include')).toBe(picked);
    expect(await page.inputValue('#conditions input[name=selector]')).toBe('#fare');
    await page.fill('#f-name', 'Leith ferry');
    await page.fill('#f-tags', 'ferries, scotland, timetable');
    await page.click('#conditions button:text("Remove")');
    await page.uncheck('input[name=ignore_patterns][value=clock]');
    await page.click('#save-watch');
    await page.locator('#watch-rows a', { hasText: 'Leith ferry' }).waitFor();
    const edited = (await trawl.get(`/v1/watch/${id}`, auth)).body;
    expect(edited).toMatchObject({
      name: 'Leith ferry',
      tags: ['ferries', 'scotland', 'timetable'],
      conditions: [],
      include_selectors: [picked],
    });
    expect(edited.ignore_patterns).toEqual(['relative_time', 'counters', 'tokens']);

    // A second watch to search and filter among.
    await trawl.post('/v1/watch', { url: site.at('/news'), name: 'Harbour news', tags: ['news'] }, auth);
    await page.fill('#search', 'x');
    await page.fill('#search', '');
    await page.locator('#watch-count', { hasText: '2 watches' }).waitFor();
    await page.fill('#search', 'leith');
    await page.locator('#watch-count', { hasText: '1 watch' }).waitFor();
    expect(await page.locator('#watch-rows a.watch-name').allTextContents()).toEqual(['Leith ferry']);
    await page.fill('#search', 'nothing like this');
    await page.locator('#empty').waitFor({ state: 'visible' });
    await page.fill('#search', '');
    await page.locator('#watch-count', { hasText: '2 watches' }).waitFor();
    await page.selectOption('#tag-filter', 'news');
    await page.locator('#watch-count', { hasText: '1 watch' }).waitFor();
    expect(await page.locator('#watch-rows a.watch-name').allTextContents()).toEqual(['Harbour news']);
    await page.selectOption('#tag-filter', '');
    await page.locator('#watch-count', { hasText: '2 watches' }).waitFor();

    // The departure time changes: a check notifies, the timeline says so and why, the diff shows the words.
    for (let i = 0; i < 100 && (await trawl.get(`/v1/watch/${id}`, auth)).body.snapshots.length === 0; i++) await Bun.sleep(50);
    departure = '09:47';
    await page.click(`#watch-rows tr[data-id="${id}"] button:text("Check now")`);
    await page.locator('#timeline-rows .badge.changed').waitFor({ timeout: 20_000 });
    expect(await page.locator('#timeline-rows .badge.notified').count()).toBe(1);
    const snapshots = (await trawl.get(`/v1/watch/${id}`, auth)).body.snapshots;
    expect(await page.locator('#timeline-rows tr').first().textContent()).toContain(snapshots[0].reason);
    await page.locator('#diff.side del').first().waitFor();
    expect(await page.locator('#diff del').allTextContents()).toEqual(['09:12']);
    expect(await page.locator('#diff ins').allTextContents()).toEqual(['09:47']);
    expect(await page.locator('#diff .side-head').allTextContents()).toEqual(['Before', 'After']);
    await page.check('input[name=diff-mode][value=inline]');
    await page.locator('#diff.inline').waitFor();
    expect(await page.locator('#diff del').allTextContents()).toEqual(['09:12']);
    expect(await page.locator('#diff ins').allTextContents()).toEqual(['09:47']);
    expect(await page.locator('#diff .chg').first().textContent()).toContain('Leaves Leith harbour at 09:1209:47 from pier two');
    // The notification reached its target: the watch's detail says so.
    for (let i = 0; i < 100 && (await trawl.get(`/v1/watch/${id}`, auth)).body.notify_status[0]?.outcome !== 'delivered'; i++)
      await Bun.sleep(50);
    expect(site.hits.filter((hit) => hit === '/hook')).toHaveLength(1);
    await page.click(`#watch-rows tr[data-id="${id}"] a.watch-name`);
    await page.locator('#detail-delivery', { hasText: `${site.at('/hook')}: delivered` }).waitFor();
    await page.click('#timeline-rows tr:last-child button:text("View")');
    await page.locator('#preview', { hasText: '09:12' }).waitFor();
    await page.check('input[name=diff-mode][value=side]');
    await checkShot(page, 'desktop-1280');

    // Recheck all queues a check of every listed watch.
    await page.click('#recheck-all');
    await page.locator('#message', { hasText: 'Queued 2 checks' }).waitFor();

    // Delete asks first: cancel keeps the watch, confirm removes it.
    const news = `#watch-rows tr:has(a:text("Harbour news"))`;
    await page.click(`${news} button:text("Delete")`);
    await page.locator('#confirm', { hasText: 'Delete “Harbour news” and all its snapshots?' }).waitFor();
    await page.click('#confirm-cancel');
    expect(await page.locator(news).count()).toBe(1);
    await page.click(`${news} button:text("Delete")`);
    await page.click('#confirm-ok');
    await page.locator('#watch-count', { hasText: '1 watch' }).waitFor();
    expect((await trawl.get('/v1/watch', auth)).body.watches.map((w: { name: string }) => w.name)).toEqual(['Leith ferry']);

    // Export the settings as JSON and as a URL list; import a list through the API.
    await page.click('#transfer-open');
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    const exported = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8'));
    expect(exported.watches).toMatchObject([
      {
        url: site.at('/timetable'),
        name: 'Leith ferry',
        tags: ['ferries', 'scotland', 'timetable'],
        include_selectors: [picked],
        interval_minutes: 120,
        notify: [site.at('/hook')],
      },
    ]);
    expect(exported.watches[0].id).toBeUndefined();
    const [urlDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-urls')]);
    expect(readFileSync((await urlDownload.path())!, 'utf8')).toBe(`${site.at('/timetable')}\n`);
    await page.fill('#import-text', `# harbour pages\n${site.at('/news')}\nftp://example.com/file\n`);
    await page.click('#import-run');
    await page.locator('#message', { hasText: 'Imported 1 watch' }).waitFor();
    expect(await page.locator('#import-results li').allTextContents()).toEqual([
      `${site.at('/news')}: created`,
      expect.stringContaining('ftp://example.com/file: Invalid field url') as unknown as string,
    ]);
    await page.locator('#watch-count', { hasText: '2 watches' }).waitFor();
    // The JSON export imports back as the same settings.
    await page.fill('#import-text', JSON.stringify(exported));
    await page.click('#import-run');
    await page.locator('#watch-count', { hasText: '3 watches' }).waitFor();
    const copies = (await trawl.get('/v1/watch?search=Leith', auth)).body.watches;
    expect(copies).toHaveLength(2);
    const copy = copies.find((w: { id: string }) => w.id !== id);
    expect(copy).toMatchObject(exported.watches[0]);
    expect(await trawl.call(`/v1/watch/${copy.id}`, { method: 'DELETE', headers: auth })).toMatchObject({ status: 200 });

    // The feed: an address made on the page opens the Atom feed with the change; revoked, it is refused.
    await page.click('#feed-open');
    await page.click('#feed-create');
    await page.locator('#feed-url').waitFor({ state: 'visible' });
    const feedUrl = (await page.textContent('#feed-url'))!;
    expect(feedUrl).toStartWith(`${trawl.url}/v1/watch/feed.atom?token=trawl_feed_`);
    const atom = await (await fetch(feedUrl)).text();
    expect(atom).toContain('<title type="text">Leith ferry changed</title>');
    expect(atom).toContain(`/dashboard?watch=${id}&amp;to=${snapshots[0].id}`);
    await page.click('#feed-revoke');
    await page.click('#confirm-ok');
    await page.locator('#feed-state', { hasText: 'No feed address yet.' }).waitFor();
    expect((await fetch(feedUrl)).status).toBe(401);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  test('at phone width (420 px) nothing spills; a feed link opens its change', async () => {
    const { watches } = (await trawl.get('/v1/watch', auth)).body;
    const ferry = watches.find((w: { name: string }) => w.name === 'Leith ferry');
    const newest = (await trawl.get(`/v1/watch/${ferry.id}`, auth)).body.snapshots.find((s: { notified: boolean }) => s.notified);
    const page = await browser.newPage({ viewport: { width: 420, height: 860 }, isMobile: true } as never);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${trawl.url}/dashboard?watch=${ferry.id}&to=${newest.id}`);
    await enterKey(page);
    await page.locator('#diff del').first().waitFor();
    expect(await page.locator('#diff del').allTextContents()).toEqual(['09:12']);
    expect(await page.isChecked(`#timeline-rows input[name=to][value="${newest.id}"]`)).toBe(true);
    for (const text of ['Leith ferry', site.at('/news'), 'Timeline of', 'notified', '09:47']) {
      expect([text, await page.getByText(text, { exact: false }).evaluateAll((found) => found.some((e) => e.checkVisibility()))]).toEqual([
        text,
        true,
      ]);
    }
    await page.click('#new-watch');
    await page.click('#add-condition');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
    expect(await spilling(page)).toEqual([]);
    await checkShot(page, 'phone-420');
    await page.click('#cancel-edit');
    await page.check('input[name=diff-mode][value=inline]');
    expect(await spilling(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);
});
