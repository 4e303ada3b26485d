// The click action: its schema, and a real click in Chromium that runs the page's handler.
import { expect, test } from 'bun:test';
import { testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { clickAction } from './click.ts';

const pool = useTestBrowserPool();
const click = clickAction.setup({}, testContext()) as Awaited<ReturnType<typeof clickAction.setup>>;

test('schema: a selector is required and unknown keys are refused', () => {
  expect(click.schema.safeParse({ type: 'click', selector: '#go' }).success).toBe(true);
  expect(click.schema.safeParse({ type: 'click' }).success).toBe(false);
  expect(click.schema.safeParse({ type: 'click', selector: '  ' }).success).toBe(false);
  expect(click.schema.safeParse({ type: 'click', selector: '#go', button: 'right' }).success).toBe(false);
});

test('clicks the element, which runs its handler', async () => {
  const html = '<button id="go" onclick="document.body.dataset.clicked = \'yes\'">Go</button>';
  const clicked = await withHtmlPage(pool, html, async (page) => {
    await click.run(page, click.schema.parse({ type: 'click', selector: '#go' }), { index: 0, timeoutMs: 2000 });
    return page.evaluate(() => document.body.dataset.clicked);
  });
  expect(clicked).toBe('yes');
});

test('fails when nothing matches within the timeout', async () => {
  const error = await withHtmlPage(pool, '<p>nothing to click</p>', (page) =>
    click.run(page, click.schema.parse({ type: 'click', selector: '#missing' }), { index: 0, timeoutMs: 300 }).then(
      () => null,
      (e: Error) => e,
    ),
  );
  expect(error?.name).toBe('TimeoutError');
});
