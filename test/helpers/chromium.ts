/**
 * For tests that open Trawl's own pages in Chromium (playwright-core, Debian's /usr/bin/chromium):
 * the browser, failing with what to install when it is missing, and whether a screenshot shows
 * content (the share of sampled pixels that are not near-white, and how many colours they have).
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Browser } from 'playwright-core';
import { requireChromium } from '../../core/browser/testing.ts';

const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  requireChromium(CHROMIUM);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false });
}

export async function inkOf(png: Buffer): Promise<{ ink: number; colours: number }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let inked = 0;
  let samples = 0;
  const colours = new Set<number>();
  for (let i = 0; i < data.length; i += 4 * 7) {
    samples++;
    if (data[i]! < 235 || data[i + 1]! < 235 || data[i + 2]! < 235) inked++;
    colours.add(((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4));
  }
  return { ink: inked / samples, colours: colours.size };
}
