/** The `click` action: clicks the first element matching `selector`, once it is visible and enabled. */
import { z } from 'zod';
import { actionHandler, definePlugin, selectorField } from '../../../core/kit.ts';

export const clickAction = definePlugin({
  kind: 'action',
  name: 'click',
  description: 'Clicks the first element matching `selector`, waiting until it is visible and enabled.',
  provides: ['action:click'],
  setup: () =>
    actionHandler({
      type: 'click',
      schema: z.strictObject({ type: z.literal('click'), selector: selectorField }),
      async run(page, action, ctx) {
        await page.click(action.selector, { timeout: ctx.timeoutMs });
      },
    }),
});
