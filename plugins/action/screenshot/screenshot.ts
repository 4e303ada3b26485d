/**
 * The `screenshot` action: a PNG of the page at that point of the sequence, added to the result's
 * `screenshots` as `{index, data}`. The visible viewport by default (what scrolling shows), the
 * whole page with `fullPage: true`.
 */
import { z } from 'zod';
import { actionHandler, DEFAULT_MAX_SCREENSHOT_HEIGHT, definePlugin, takeScreenshot } from '../../../core/kit.ts';

export const screenshotAction = definePlugin({
  kind: 'action',
  name: 'screenshot',
  description: 'Takes a PNG screenshot at this point (the viewport, or the whole page when asked); results land in `screenshots`.',
  provides: ['action:screenshot'],
  options: z.strictObject({
    maxHeight: z
      .number()
      .int()
      .min(100)
      .max(100_000)
      .default(DEFAULT_MAX_SCREENSHOT_HEIGHT)
      .describe('Full-page shots stop at this height in CSS pixels.'),
  }),
  setup: (options) =>
    actionHandler({
      type: 'screenshot',
      yields: 'screenshot' as const,
      schema: z.strictObject({ type: z.literal('screenshot'), fullPage: z.boolean().default(false) }),
      async run(page, action) {
        const shot = await takeScreenshot(page, { fullPage: action.fullPage, maxHeight: options.maxHeight });
        return { screenshot: shot.png };
      },
    }),
});
