/** The `press` action: one key press on the focused element (Enter submits the form a `type` filled). */
import { z } from 'zod';
import { actionHandler, definePlugin } from '../../../core/kit.ts';

export const PRESSABLE_KEYS = ['Enter', 'Tab', 'Escape', 'ArrowDown', 'ArrowUp', 'Space', 'Backspace'] as const;

export const pressAction = definePlugin({
  kind: 'action',
  name: 'press',
  description: `Presses one key on the focused element: ${PRESSABLE_KEYS.join(', ')}.`,
  provides: ['action:press'],
  setup: () =>
    actionHandler({
      type: 'press',
      schema: z.strictObject({ type: z.literal('press'), key: z.enum(PRESSABLE_KEYS) }),
      async run(page, action) {
        await page.keyboard.press(action.key);
      },
    }),
});
