// The action runner with small fake actions (no browser): order of results, failures with and
// without ignore_action_errors, the total output cap, and failures that always stop the job.
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { actionHandler, TrawlError } from '../../../core/kit.ts';
import type { ActionCatalog } from '../../../core/kit.ts';
import { failure } from '../../../core/testing.ts';
import { describeActionError, runActions, type RunActionsOptions } from './actions.ts';

let pageClosed = false;
const page = { isClosed: () => pageClosed } as unknown as Page;
const handlers = [
  actionHandler({
    type: 'echo',
    yields: 'jsResult',
    schema: z.strictObject({ type: z.literal('echo'), value: z.unknown(), fail: z.string().optional() }),
    async run(_page, action) {
      if (action.fail) throw new Error(`script threw ${action.fail}`);
      return { jsResult: action.value };
    },
  }),
  actionHandler({
    type: 'snap',
    yields: 'screenshot',
    schema: z.strictObject({ type: z.literal('snap'), bytes: z.number() }),
    run: async (_page, action) => ({ screenshot: new Uint8Array(action.bytes) }),
  }),
  actionHandler({
    type: 'find',
    schema: z.strictObject({ type: z.literal('find'), selector: z.string() }),
    run: async () => {
      throw Object.assign(new Error('locator.click: Timeout 300ms exceeded.\nCall log: …'), { name: 'TimeoutError' });
    },
  }),
];
const catalog: ActionCatalog = { find: (type) => handlers.find((h) => h.type === type), types: () => handlers.map((h) => h.type) };
const options = (extra: Partial<RunActionsOptions> = {}): RunActionsOptions => ({
  timeoutMs: 300,
  maxOutputBytes: 10_000,
  ignoreErrors: false,
  signal: new AbortController().signal,
  settle: async () => {},
  ...extra,
});

describe('results', () => {
  test('js results in action order, screenshots with their index; absent kinds stay null', async () => {
    const results = await runActions(
      page,
      [
        { type: 'echo', value: 1 },
        { type: 'snap', bytes: 3 },
        { type: 'echo', value: { a: [2] } },
      ] as never,
      catalog,
      options(),
    );
    expect(results).toEqual({ jsResults: [1, { a: [2] }], screenshots: [{ index: 1, data: 'AAAA' }], errors: [] });
    expect(await runActions(page, [], catalog, options())).toEqual({ jsResults: null, screenshots: null, errors: [] });
  });

  test('the outputs of one job are capped in total', async () => {
    const error = await failure(
      runActions(
        page,
        [
          { type: 'snap', bytes: 6000 },
          { type: 'snap', bytes: 6000 },
        ] as never,
        catalog,
        options(),
      ),
    );
    expect(error.message).toBe('Action actions[1] (snap) failed: screenshots and script results exceed 10000 bytes in total');
  });
});

describe('failures', () => {
  const actions = [
    { type: 'find', selector: '#nowhere' },
    { type: 'echo', value: 0, fail: 'Error: boom' },
    { type: 'echo', value: 'after' },
  ] as never;

  test('stop the job with a 422 naming the index', async () => {
    const error = await failure(runActions(page, actions, catalog, options()));
    expect(error.status).toBe(422);
    expect(error.message).toBe('Action actions[0] (find) failed: "#nowhere" did not match a visible element within 300 ms');
  });

  test('with ignoreErrors are listed, and a failed script keeps its place as null', async () => {
    const results = await runActions(page, actions, catalog, options({ ignoreErrors: true }));
    expect(results.jsResults).toEqual([null, 'after']);
    expect(results.errors).toEqual([
      { index: 0, type: 'find', error: '"#nowhere" did not match a visible element within 300 ms' },
      { index: 1, type: 'echo', error: 'script threw Error: boom' },
    ]);
  });

  test('a closed page or a cancelled job always stops, even with ignoreErrors', async () => {
    const outcome = (extra: Partial<RunActionsOptions>) =>
      runActions(page, actions, catalog, options({ ignoreErrors: true, ...extra })).then(
        () => 'carried on',
        (e: Error) => e.name,
      );
    pageClosed = true;
    try {
      expect(await outcome({})).toBe('TimeoutError');
    } finally {
      pageClosed = false;
    }
    const controller = new AbortController();
    controller.abort();
    expect(await outcome({ signal: controller.signal })).toBe('TimeoutError');
    expect(await outcome({})).toBe('carried on');
  });

  test('messages drop Playwright call logs and method prefixes', () => {
    expect(describeActionError(new Error('page.fill: Error: Element is not an <input>\nCall log:\n  - waiting'), { type: 'type' }, 1)).toBe(
      'Error: Element is not an <input>',
    );
    expect(describeActionError(Object.assign(new Error('x'), { name: 'TimeoutError' }), { type: 'wait' }, 5)).toBe('timed out after 5 ms');
    expect(describeActionError(new TrawlError('unprocessable', 'custom reason'), { type: 'x' }, 1)).toBe('custom reason');
  });
});
