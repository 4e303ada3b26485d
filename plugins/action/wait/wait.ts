/**
 * The `wait` action: waits until an element matching `selector` is visible, then pauses for `ms`
 * (or `milliseconds`, the spelling some clients send); either alone does just that part. The
 * spec's own example gives `selector` and `ms` together: the element, then the pause, is what such
 * a caller means (content that appears, then settles). `ms` and `milliseconds` together are refused:
 * two durations for one pause.
 */
import { z } from 'zod';
import { actionHandler, definePlugin, durationField, selectorField } from '../../../core/kit.ts';

const schema = z
  .strictObject({
    type: z.literal('wait'),
    ms: durationField.optional(),
    milliseconds: durationField.optional(),
    selector: selectorField.optional(),
  })
  .superRefine((action, ctx) => {
    if (action.ms !== undefined && action.milliseconds !== undefined)
      ctx.addIssue({ code: 'custom', message: 'give only one of ms and milliseconds' });
    else if (action.ms === undefined && action.milliseconds === undefined && action.selector === undefined)
      ctx.addIssue({ code: 'custom', message: 'needs ms (or milliseconds), selector, or both' });
  });

export const waitAction = definePlugin({
  kind: 'action',
  name: 'wait',
  description:
    'Waits until an element matching `selector` is visible, then `ms` (or `milliseconds`) milliseconds; either alone does that part.',
  provides: ['action:wait'],
  setup: () =>
    actionHandler({
      type: 'wait',
      schema,
      async run(page, action, ctx) {
        if (action.selector !== undefined) await page.waitForSelector(action.selector, { state: 'visible', timeout: ctx.timeoutMs });
        const pause = action.ms ?? action.milliseconds;
        if (pause !== undefined) await page.waitForTimeout(pause);
      },
    }),
});
