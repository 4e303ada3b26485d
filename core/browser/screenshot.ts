/**
 * PNG screenshots of a page, shared by the browser fetcher (`screenshot`, the screenshot format)
 * and the screenshot action. A full-page shot is capped in height: a hostile page can claim a
 * million pixels of height and the PNG would follow it into memory.
 */
import type { Page } from 'playwright-core';

/** Chromium's own texture limit; taller pages are cut here. */
export const DEFAULT_MAX_SCREENSHOT_HEIGHT = 16_384;

export interface Screenshot {
  png: Uint8Array;
  /** True when the page was taller than the cap and the image stops there. */
  cut: boolean;
}

export async function takeScreenshot(page: Page, options: { fullPage: boolean; maxHeight: number }): Promise<Screenshot> {
  if (!options.fullPage) return { png: await page.screenshot({ type: 'png' }), cut: false };
  const height = await page.evaluate(() => Math.max(document.documentElement?.scrollHeight ?? 0, document.body?.scrollHeight ?? 0));
  if (height <= options.maxHeight) return { png: await page.screenshot({ type: 'png', fullPage: true }), cut: false };
  const width = page.viewportSize()?.width ?? 1280;
  return { png: await page.screenshot({ type: 'png', fullPage: true, clip: { x: 0, y: 0, width, height: options.maxHeight } }), cut: true };
}

export const toBase64 = (png: Uint8Array) => Buffer.from(png).toString('base64');
