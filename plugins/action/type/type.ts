/**
 * The `type` action: puts text into the input, textarea or contenteditable element matching
 * `selector` (replacing what it held) and leaves the focus there, so a following `press` of Enter
 * submits its form.
 */
import { z } from 'zod';
import { actionHandler, definePlugin, selectorField } from '../../../core/kit.ts';

export const typeAction = definePlugin({
  kind: 'action',
  name: 'type',
  description: 'Types `value` into the input matching `selector` (replacing its content) and keeps it focused.',
  provides: ['action:type'],
  setup: () =>
    actionHandler({
      type: 'type',
      schema: z.strictObject({ type: z.literal('type'), selector: selectorField, value: z.string().max(10_000) }),
      async run(page, action, ctx) {
        // fill() sends the input events frameworks listen to, without one key event per character.
        await page.fill(action.selector, action.value, { timeout: ctx.timeoutMs });
      },
    }),
});
