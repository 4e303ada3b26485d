/**
 * The account page in real Chromium, in cloud mode on SQLite and Postgres: nothing said before a
 * key is typed; signing in shows the balance and plan, the usage chart drawn with bars of each
 * endpoint, the usage log (filtered by endpoint) and a run's output, the results history with a
 * stored output; a key made on the page is shown once, works for an API call, and once revoked on
 * the page (confirmed) is 401, and renaming it on the page holds; a member key sees the API's refusal instead of keys and billing.
 * Screenshots of the admin and member views are checked for content and saved under the temp dir.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Storage } from '../../core/services.ts';
import { ADMIN_KEY, admin, bearer } from '../helpers/cloud-tenants.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { inkOf, launchChromium } from '../helpers/chromium.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const PAGE =
  '<!doctype html><html><head><title>Tides</title></head><body><article><h1>Tides</h1><p>The sea rises and falls twice a day at the harbour.</p></article></body></html>';
export const SHOTS = join(tmpdir(), 'trawl-account-page');

/** Pixels of the chart canvas in one of the first series' colours: the bars, not the axes. */
const barPixels = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.getElementById('chart') as HTMLCanvasElement;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const series = [
      [0x1f, 0x77, 0xb4],
      [0xff, 0x7f, 0x0e],
    ];
    let bars = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (series.some(([r, g, b]) => Math.abs(data[i]! - r!) < 8 && Math.abs(data[i + 1]! - g!) < 8 && Math.abs(data[i + 2]! - b!) < 8))
        bars++;
    }
    return bars;
  });

async function checkedShot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  const { ink, colours } = await inkOf(await page.screenshot({ fullPage: true, path }));
  expect(ink).toBeGreaterThan(0.03);
  expect(colours).toBeGreaterThan(8);
  return path;
}

for (const database of testDatabases()) {
  describe(`account page in Chromium, cloud mode (${database.name})`, () => {
    let storage: Storage;
    let site: FixtureSite;
    let trawl: TestServer;
    let browser: Browser;
    let key: string;

    beforeAll(async () => {
      site = startFixtureSite({ '/tides': PAGE });
      storage = await database.open();
      trawl = await startTrawlServer({ storage, overrides: { mode: 'cloud', adminKey: ADMIN_KEY } });
      const workspace = await trawl.post('/admin/workspaces', { name: 'Harbour office', plan: 'growth', credits: 100 }, admin);
      key = (await trawl.post(`/admin/workspaces/${workspace.body.id}/keys`, { name: 'owner' }, admin)).body.key;
      for (let i = 0; i < 2; i++) expect((await trawl.post('/v1/scrape', { url: site.at('/tides') }, bearer(key))).status).toBe(200);
      expect((await trawl.post('/v1/map', { url: site.at('/tides') }, bearer(key))).status).toBe(200);
      browser = await launchChromium();
    }, 30_000);
    afterAll(async () => {
      await browser?.close();
      await trawl.stop();
      await storage.close();
      await site.stop();
    });

    test('sign in, balance, chart, usage log, outputs, a key made, used and revoked — and a screenshot', async () => {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      await page.goto(`${trawl.url}/account`);
      await page.locator('#key-form').waitFor({ state: 'visible' });
      // Nothing is said before a key is typed.
      expect(await page.textContent('#key-error')).toBe('');
      expect(await page.textContent('#message')).toBe('');

      await page.fill('#key', key);
      await page.click('#key-form button');
      await page.locator('#ws-name', { hasText: 'Harbour office' }).waitFor();
      const balance = (await trawl.get('/v1/account', bearer(key))).body.balance;
      expect(await page.textContent('#ws-balance')).toBe(`${balance.toLocaleString('en-US')} credits`);
      expect(await page.textContent('#ws-plan')).toBe('growth');
      expect(await page.textContent('#ws-role')).toBe('admin');

      // The chart: a bar series per endpoint, drawn.
      await page.locator('#usage-rows tr').first().waitFor();
      expect(
        await page.evaluate(() => (window as any).Chart.getChart('chart').data.datasets.map((d: { label: string }) => d.label)),
      ).toEqual(['map', 'scrape']);
      expect(await barPixels(page)).toBeGreaterThan(200);
      expect(await page.textContent('#usage-total')).toContain('3 runs');

      // The log, filtered to one endpoint, and a run's stored output.
      expect(await page.locator('#usage-rows tr').count()).toBe(3);
      await page.selectOption('#endpoint', 'scrape');
      await page.click('#usage-form button');
      await page.locator('#usage-rows tr').nth(2).waitFor({ state: 'detached' });
      expect(await page.locator('#usage-rows tr td:nth-child(2)').allTextContents()).toEqual(['scrape', 'scrape']);
      await page.click('#usage-rows tr:first-child button:text("Output")');
      await page.locator('#output-body', { hasText: 'rises and falls' }).waitFor();

      // Results history: open one.
      await page.locator('#result-rows tr').first().waitFor();
      await page.click('#result-rows tr:first-child button:text("Open")');
      await page.locator('#output-body', { hasText: 'Tides' }).waitFor();

      // A key made on the page: shown once, works, then revoked on the page with a confirmation.
      await page.fill('#new-name', 'made on the page');
      await page.selectOption('#new-role', 'member');
      await page.click('#create-form button');
      await page.locator('#secret-box').waitFor({ state: 'visible' });
      const made = (await page.textContent('#new-secret'))!;
      expect(made).toMatch(/^trawl_[A-Za-z0-9_-]{43}$/);
      expect((await trawl.post('/v1/scrape', { url: site.at('/tides') }, bearer(made))).status).toBe(200);
      const row = page.locator('#key-rows tr', { hasText: made.slice(-4) });
      expect(await row.locator('td').nth(2).textContent()).toBe('member');
      await page.selectOption('#endpoint', '');
      await page.click('#usage-form button');
      await page.locator('#usage-rows tr').nth(2).waitFor();
      await checkedShot(page, `admin-${database.name}`);
      await page.click('#secret-done');
      expect(await page.content()).not.toContain(made);
      await page.reload();
      await row.waitFor();
      expect(await page.content()).not.toContain(made);

      await row.locator('input').fill('renamed on the page');
      await row.locator('button:text("Rename")').click();
      await page.locator('#message', { hasText: 'Key renamed' }).waitFor();
      expect((await trawl.get('/v1/keys', bearer(key))).body.keys.map((k: { name: string }) => k.name)).toEqual([
        'owner',
        'renamed on the page',
      ]);

      page.once('dialog', (dialog) => dialog.accept());
      await row.locator('button:text("Revoke")').click();
      await row.waitFor({ state: 'detached' });
      expect(await page.textContent('#message')).toContain('revoked');
      expect(await trawl.post('/v1/scrape', { url: site.at('/tides') }, bearer(made))).toMatchObject({ status: 401 });
      expect(errors).toEqual([]);
    }, 60_000);

    test('a member key: the refusal shown where keys and billing would be, no key list', async () => {
      const member = (await trawl.post('/v1/keys', { name: 'ci', role: 'member' }, bearer(key))).body.key;
      expect((await trawl.get('/v1/keys', bearer(member))).status).toBe(403);
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await page.goto(`${trawl.url}/account`);
      await page.fill('#key', member);
      await page.click('#key-form button');
      await page.locator('#keys-refused').waitFor({ state: 'visible' });
      expect(await page.textContent('#keys-refused')).toBe(
        "This key's role is member: managing API keys needs an admin key of the workspace",
      );
      expect(await page.isVisible('#keys-body')).toBe(false);
      expect(await page.locator('#key-rows tr').count()).toBe(0);
      await page.locator('#usage-refused').waitFor({ state: 'visible' });
      expect(await page.isVisible('#chart')).toBe(false);
      expect(await page.textContent('#ws-role')).toBe('member');
      expect(await page.textContent('#ws-balance')).toBe('admin keys only');
      await page.locator('#result-rows tr').first().waitFor();
      await checkedShot(page, `member-${database.name}`);

      // A wrong key: back to the sign-in form with the API's answer.
      await page.click('#forget');
      await page.fill('#key', 'trawl_not-a-real-key');
      await page.click('#key-form button');
      await page.locator('#key-error', { hasText: 'Invalid or missing API key' }).waitFor();
    }, 30_000);
  });
}

describe('account page, self-hosted', () => {
  test("the default workspace's keys; usage and results said to be cloud-only", async () => {
    const KEY = 'self-hosted-account-page-key-0123';
    const trawl = await startTrawlServer({ overrides: { apiKey: KEY } });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${trawl.url}/account`);
      await page.fill('#key', KEY);
      await page.click('#key-form button');
      await page.locator('#key-rows tr', { hasText: '(configured)' }).waitFor();
      expect(await page.textContent('#ws-plan')).toBe('self-hosted');
      expect(await page.isVisible('#cloud-only')).toBe(true);
      expect(await page.isVisible('#usage')).toBe(false);
      expect(await page.isVisible('#results')).toBe(false);
      const response = await page.request.get(`${trawl.url}/account`);
      expect(response.headers()['content-security-policy']).toContain("script-src 'nonce-");
    } finally {
      await browser.close();
      await trawl.stop();
    }
  }, 30_000);
});
