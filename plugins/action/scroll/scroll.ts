/** The `scroll` action: scrolls the page one viewport height up or down, which wakes lazy loaders. */
import { z } from 'zod';
import { actionHandler, definePlugin } from '../../../core/kit.ts';

export const scrollAction = definePlugin({
  kind: 'action',
  name: 'scroll',
  description: 'Scrolls the page one viewport height `up` or `down` (default down).',
  provides: ['action:scroll'],
  setup: () =>
    actionHandler({
      type: 'scroll',
      schema: z.strictObject({ type: z.literal('scroll'), direction: z.enum(['up', 'down']).default('down') }),
      async run(page, action) {
        const sign = action.direction === 'up' ? -1 : 1;
        await page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
      },
    }),
});
