// The type action: its schema, and text typed into a real input in Chromium.
import { expect, test } from 'bun:test';
import { testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { typeAction } from './type.ts';

const pool = useTestBrowserPool();
const type = typeAction.setup({}, testContext()) as Awaited<ReturnType<typeof typeAction.setup>>;

test('schema: selector and value are required', () => {
  expect(type.schema.safeParse({ type: 'type', selector: '#q', value: 'tides' }).success).toBe(true);
  expect(type.schema.safeParse({ type: 'type', selector: '#q' }).success).toBe(false);
  expect(type.schema.safeParse({ type: 'type', value: 'tides' }).success).toBe(false);
  expect(type.schema.safeParse({ type: 'type', selector: '#q', value: 5 }).success).toBe(false);
  expect(type.schema.safeParse({ type: 'type', selector: '#q', value: 'x'.repeat(10_001) }).success).toBe(false);
});

test('replaces the input text, fires input events and keeps the focus there', async () => {
  const html = '<input id="q" value="old"><p id="echo"></p><script>q.addEventListener("input", () => echo.textContent = q.value)</script>';
  const state = await withHtmlPage(pool, html, async (page) => {
    await type.run(page, type.schema.parse({ type: 'type', selector: '#q', value: 'tidal power' }), { index: 0, timeoutMs: 2000 });
    return page.evaluate(() => ({
      value: (document.querySelector('#q') as HTMLInputElement).value,
      echo: document.querySelector('#echo')!.textContent,
      focused: document.activeElement?.id,
    }));
  });
  expect(state).toEqual({ value: 'tidal power', echo: 'tidal power', focused: 'q' });
});

test('fails on an element that takes no text', async () => {
  const error = await withHtmlPage(pool, '<div id="plain">text</div>', (page) =>
    type.run(page, type.schema.parse({ type: 'type', selector: '#plain', value: 'x' }), { index: 0, timeoutMs: 5000 }).then(
      () => null,
      (e: Error) => e,
    ),
  );
  expect(error?.message).toContain('not an <input>');
});
