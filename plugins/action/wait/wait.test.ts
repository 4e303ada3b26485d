// The wait action: a selector, a pause (ms or milliseconds) or both in that order, and waiting for an element in Chromium.
import { expect, test } from 'bun:test';
import { testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { waitAction } from './wait.ts';

const pool = useTestBrowserPool();
const wait = waitAction.setup({}, testContext()) as Awaited<ReturnType<typeof waitAction.setup>>;

test('schema: a selector, one pause (ms or milliseconds), or both', () => {
  expect(wait.schema.safeParse({ type: 'wait', ms: 100 }).success).toBe(true);
  expect(wait.schema.safeParse({ type: 'wait', milliseconds: 100 }).success).toBe(true);
  expect(wait.schema.safeParse({ type: 'wait', selector: '.late' }).success).toBe(true);
  const none = wait.schema.safeParse({ type: 'wait' });
  expect(none.error?.issues[0]?.message).toBe('needs ms (or milliseconds), selector, or both');
  // The spec's example gives both.
  expect(wait.schema.safeParse({ type: 'wait', ms: 10, selector: '.late' }).success).toBe(true);
  const twoPauses = wait.schema.safeParse({ type: 'wait', ms: 10, milliseconds: 10 });
  expect(twoPauses.error?.issues[0]?.message).toBe('give only one of ms and milliseconds');
  expect(wait.schema.safeParse({ type: 'wait', ms: 60_001 }).success).toBe(false);
  expect(wait.schema.safeParse({ type: 'wait', ms: -1 }).success).toBe(false);
  expect(wait.schema.safeParse({ type: 'wait', ms: '100' }).success).toBe(false);
});

test('waits for an element that a script adds later', async () => {
  const html = '<script>setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p class=late>Late arrival</p>"), 300)</script>';
  const text = await withHtmlPage(pool, html, async (page) => {
    await wait.run(page, wait.schema.parse({ type: 'wait', selector: '.late' }), { index: 0, timeoutMs: 5000 });
    return page.textContent('.late');
  });
  expect(text).toBe('Late arrival');
});

test('selector and ms together: the element first, then the pause', async () => {
  // The page notes when the element arrived; the pause is measured from then, on the page's own clock.
  const html =
    '<script>setTimeout(() => { document.body.insertAdjacentHTML("beforeend", "<p class=late>Late arrival</p>"); window.arrivedAt = performance.now(); }, 200)</script>';
  const [text, sinceArrival] = await withHtmlPage(pool, html, async (page) => {
    await wait.run(page, wait.schema.parse({ type: 'wait', selector: '.late', ms: 400 }), { index: 0, timeoutMs: 5000 });
    return [
      await page.textContent('.late'),
      await page.evaluate(() => performance.now() - (window as unknown as { arrivedAt: number }).arrivedAt),
    ] as const;
  });
  expect(text).toBe('Late arrival');
  // A few milliseconds of slack for the two clocks' rounding, far below the 400 ms pause.
  expect(sinceArrival).toBeGreaterThanOrEqual(390);
});

test('a selector that never shows up fails with a timeout; a plain pause completes', async () => {
  const outcome = await withHtmlPage(pool, '<p class="late" hidden>hidden</p>', async (page) => {
    await wait.run(page, wait.schema.parse({ type: 'wait', milliseconds: 20 }), { index: 0, timeoutMs: 1000 });
    return wait.run(page, wait.schema.parse({ type: 'wait', selector: '.late' }), { index: 1, timeoutMs: 300 }).then(
      () => null,
      (e: Error) => e.name,
    );
  });
  expect(outcome).toBe('TimeoutError');
});
