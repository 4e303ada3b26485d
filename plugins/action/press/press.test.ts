// The press action: the allowed keys, and real key presses on the focused element in Chromium.
import { expect, test } from 'bun:test';
import { testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { pressAction, PRESSABLE_KEYS } from './press.ts';

const pool = useTestBrowserPool();
const press = pressAction.setup({}, testContext()) as Awaited<ReturnType<typeof pressAction.setup>>;

test('schema: only the listed keys', () => {
  for (const key of PRESSABLE_KEYS) expect(press.schema.safeParse({ type: 'press', key }).success).toBe(true);
  expect(press.schema.safeParse({ type: 'press', key: 'F5' }).success).toBe(false);
  expect(press.schema.safeParse({ type: 'press', key: 'enter' }).success).toBe(false);
  expect(press.schema.safeParse({ type: 'press' }).success).toBe(false);
});

test('Enter submits the form of the focused input; Space toggles a focused checkbox', async () => {
  const html = `<form onsubmit="event.preventDefault(); document.body.dataset.sent = q.value"><input id="q" value="kelp"></form>
    <input type="checkbox" id="box">`;
  const state = await withHtmlPage(pool, html, async (page) => {
    await page.focus('#q');
    await press.run(page, press.schema.parse({ type: 'press', key: 'Enter' }), { index: 0, timeoutMs: 1000 });
    await page.focus('#box');
    await press.run(page, press.schema.parse({ type: 'press', key: 'Space' }), { index: 1, timeoutMs: 1000 });
    return page.evaluate(() => ({
      sent: document.body.dataset.sent,
      checked: (document.querySelector('#box') as HTMLInputElement).checked,
    }));
  });
  expect(state).toEqual({ sent: 'kelp', checked: true });
});
