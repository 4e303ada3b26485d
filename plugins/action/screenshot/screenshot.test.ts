// The screenshot action: viewport shots by default, whole-page shots on request, the height cap.
import { expect, test } from 'bun:test';
import { pngSize, testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { screenshotAction } from './screenshot.ts';

const pool = useTestBrowserPool();
const setup = (maxHeight?: number) =>
  screenshotAction.setup(screenshotAction.options!.parse({ maxHeight }), testContext()) as Awaited<
    ReturnType<typeof screenshotAction.setup>
  >;
const tall = '<body style="margin:0"><div style="height: 3000px; background: linear-gradient(red, blue)">tall</div></body>';

test('schema: fullPage is the only option', () => {
  expect(setup().schema.parse({ type: 'screenshot' }) as object).toEqual({ type: 'screenshot', fullPage: false });
  expect(setup().schema.safeParse({ type: 'screenshot', quality: 80 }).success).toBe(false);
});

async function shot(fullPage: boolean, maxHeight?: number) {
  const output = await withHtmlPage(pool, tall, (page) =>
    setup(maxHeight).run(page, setup().schema.parse({ type: 'screenshot', fullPage }), { index: 0, timeoutMs: 5000 }),
  );
  if (!output || !('screenshot' in output)) throw new Error('no screenshot returned');
  return pngSize(output.screenshot);
}

test('the viewport by default, the whole page with fullPage', async () => {
  const viewport = await shot(false);
  const full = await shot(true);
  expect(viewport.height).toBeLessThan(3000);
  expect(full.height).toBe(3000);
  expect(full.width).toBe(viewport.width);
});

test('a page taller than maxHeight is cut there', async () => {
  expect((await shot(true, 1200)).height).toBe(1200);
});
