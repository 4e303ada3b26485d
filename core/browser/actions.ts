/**
 * Helpers for action plugins: `actionHandler` lets a plugin's `run` see its own parsed action type
 * (the registry stores every action handler under the general shape), and the fields several
 * actions share, so they validate and describe them alike.
 */
import { z } from 'zod';
import type { ActionHandler } from '../plugin.ts';

export function actionHandler<A extends { type: string }>(handler: ActionHandler<A>): ActionHandler {
  return handler as unknown as ActionHandler;
}

export const selectorField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2000)
  .describe('CSS selector (Playwright selector syntax is accepted too)');

/** A bounded pause: longer waits belong in a request with a larger `timeout`. */
export const durationField = z.number().int().min(0).max(60_000).describe('Milliseconds, 0 to 60000');
