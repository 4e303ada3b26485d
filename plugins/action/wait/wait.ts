/**
 * The `wait` action: pauses for `ms` (or `milliseconds`, the spelling some clients send) or until
 * an element matching `selector` is visible. Exactly one of the three must be given.
 */
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin.ts';
import { actionHandler, durationField, selectorField } from '../../../core/browser/actions.ts';

const schema = z
  .strictObject({ type: z.literal('wait'), ms: durationField.optional(), milliseconds: durationField.optional(), selector: selectorField.optional() })
  .superRefine((action, ctx) => {
    const given = [action.ms, action.milliseconds, action.selector].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', message: given ? 'give only one of ms, milliseconds and selector' : 'needs ms (or milliseconds) or selector' });
  });

export const waitAction = definePlugin({
  kind: 'action',
  name: 'wait',
  description: 'Waits `ms` (or `milliseconds`) milliseconds, or until an element matching `selector` is visible.',
  provides: ['action:wait'],
  setup: () => actionHandler({
    type: 'wait',
    schema,
    async run(page, action, ctx) {
      if (action.selector !== undefined) await page.waitForSelector(action.selector, { state: 'visible', timeout: ctx.timeoutMs });
      else await page.waitForTimeout(action.ms ?? action.milliseconds ?? 0);
    },
  }),
});
