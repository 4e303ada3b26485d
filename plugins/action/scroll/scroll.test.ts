// The scroll action: direction values, and real scrolling by one viewport height in Chromium.
import { expect, test } from 'bun:test';
import { testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { scrollAction } from './scroll.ts';

const pool = useTestBrowserPool();
const scroll = scrollAction.setup({}, testContext()) as Awaited<ReturnType<typeof scrollAction.setup>>;

test('schema: up or down, down by default', () => {
  expect(scroll.schema.parse({ type: 'scroll' }) as object).toEqual({ type: 'scroll', direction: 'down' });
  expect(scroll.schema.safeParse({ type: 'scroll', direction: 'up' }).success).toBe(true);
  expect(scroll.schema.safeParse({ type: 'scroll', direction: 'left' }).success).toBe(false);
  expect(scroll.schema.safeParse({ type: 'scroll', amount: 300 }).success).toBe(false);
});

test('moves one viewport height down, then back up', async () => {
  const positions = await withHtmlPage(pool, '<div style="height: 5000px">tall</div>', async (page) => {
    const height = await page.evaluate(() => window.innerHeight);
    await scroll.run(page, scroll.schema.parse({ type: 'scroll', direction: 'down' }), { index: 0, timeoutMs: 1000 });
    await scroll.run(page, scroll.schema.parse({ type: 'scroll', direction: 'down' }), { index: 1, timeoutMs: 1000 });
    const down = await page.evaluate(() => window.scrollY);
    await scroll.run(page, scroll.schema.parse({ type: 'scroll', direction: 'up' }), { index: 2, timeoutMs: 1000 });
    return { height, down, up: await page.evaluate(() => window.scrollY) };
  });
  expect(positions.down).toBe(2 * positions.height);
  expect(positions.up).toBe(positions.height);
});
