/**
 * The `executeJavascript` action: runs `code` in the page and adds its return value, as JSON, to
 * the result's `js_results`, in the order of the actions. A script that throws or does not finish
 * within the action timeout fails the action.
 */
import { z } from 'zod';
import { actionHandler, definePlugin } from '../../../core/kit.ts';
import { wrapScript } from './script.ts';

const schema = z.strictObject({
  type: z.literal('executeJavascript'),
  code: z
    .string()
    .min(1, 'must not be empty')
    .max(100_000)
    .refine((code) => wrapScript(code) !== null, 'is not valid JavaScript (neither an expression nor a function body)'),
});

function scriptError(err: unknown): Error {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/^(page\.)?evaluate: /, '');
  return new Error(`the script threw ${message}`);
}

export const executeJavascriptAction = definePlugin({
  kind: 'action',
  name: 'execute-javascript',
  description:
    'Runs `code` (an expression or a function body; `await` allowed) in the page; its JSON-serialised return value is appended to `js_results`.',
  provides: ['action:executeJavascript'],
  setup: () =>
    actionHandler({
      type: 'executeJavascript',
      yields: 'jsResult' as const,
      schema,
      async run(page, action, ctx) {
        const script = wrapScript(action.code)!;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the script did not finish within ${ctx.timeoutMs} ms`)), ctx.timeoutMs);
        });
        try {
          const evaluated = page.evaluate(script).catch((err: unknown) => {
            throw scriptError(err);
          });
          const json = await Promise.race([evaluated, late]);
          return { jsResult: JSON.parse(String(json)) as unknown };
        } finally {
          clearTimeout(timer);
        }
      },
    }),
});
