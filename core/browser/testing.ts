/**
 * Test support for code that drives the browser: a check that fails a suite with a clear message
 * when Chromium is missing (browser tests are never skipped: CI installs it, and a developer
 * should learn what to install rather than see green), a pool for a test file, a page with given
 * HTML to act on, PNG dimensions, and waiting for a process or a condition.
 */
import { afterAll, beforeAll } from 'bun:test';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { loadConfig } from '../config.ts';
import type { BrowserPool } from '../services.ts';
import { chromiumMissingReason } from './launch.ts';
import { createBrowserPool, type BrowserPoolHooks } from './pool.ts';

/** Throws (failing the suite's beforeAll) when Chromium is not installed. */
export function requireChromium(executablePath = '/usr/bin/chromium'): void {
  const missing = chromiumMissingReason(executablePath);
  if (missing) throw new Error(`Browser tests need Chromium. ${missing}`);
}

/** A pool on the test config (private network allowed unless overridden, quiet logs). */
export function testBrowserPool(overrides: Record<string, unknown> = {}, hooks: BrowserPoolHooks = {}): BrowserPool {
  const config = loadConfig({
    plugins: [],
    env: {},
    overrides: { log: { level: 'silent' }, fetch: { allowPrivateNetwork: true }, ...overrides },
  });
  return createBrowserPool(config, pino({ level: 'silent' }), hooks);
}

/** For a test file that drives pages: fails the file when Chromium is missing, closes the pool after it. */
export function useTestBrowserPool(): BrowserPool {
  const pool = testBrowserPool();
  beforeAll(() => requireChromium());
  afterAll(() => pool.close());
  return pool;
}

/** Runs `work` on a fresh page showing `html`. */
export function withHtmlPage<T>(pool: BrowserPool, html: string, work: (page: Page) => Promise<T>): Promise<T> {
  return pool.withPage({}, async ({ page }) => {
    await page.setContent(html);
    return work(page);
  });
}

/** Width and height from a PNG's IHDR chunk; throws when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || signature.some((b, i) => png[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Whether a process still runs (signal 0 checks without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds (at most 30 s: busy machines start browsers slowly); returns its last answer. */
export async function eventually(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 1200 && !check(); i++) await Bun.sleep(25);
  return check();
}
