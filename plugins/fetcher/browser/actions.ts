/**
 * Runs a request's `actions` in order on the rendered page, each through the action plugin of its
 * `type`, letting the page settle after each one. A failing action stops the job with a 422 naming
 * its index, unless the request set `ignore_action_errors`; then the failure is recorded and the
 * sequence goes on. Failures of the browser itself (job deadline, crash) always stop the job.
 */
import type { Page } from 'playwright-core';
import { toBase64, TrawlError } from '../../../core/kit.ts';
import type { ActionCatalog } from '../../../core/kit.ts';

export interface ActionResults {
  /** One entry per `jsResult` action, in order; null for one that failed (see `errors`). */
  jsResults: unknown[] | null;
  /** One entry per successful screenshot action. */
  screenshots: Array<{ index: number; data: string }> | null;
  errors: Array<{ index: number; type: string; error: string }>;
}

export interface RunActionsOptions {
  timeoutMs: number;
  /** Cap on all screenshots and script results of one job together (base64/JSON characters). */
  maxOutputBytes: number;
  ignoreErrors: boolean;
  signal: AbortSignal;
  settle(): Promise<void>;
}

/** A readable reason for a failed action, without Playwright's call-log noise. */
export function describeActionError(err: unknown, action: { type: string }, timeoutMs: number): string {
  if (err instanceof TrawlError) return err.message;
  const selector = (action as { selector?: unknown }).selector;
  if (err instanceof Error && err.name === 'TimeoutError') {
    return typeof selector === 'string'
      ? `"${selector}" did not match a visible element within ${timeoutMs} ms`
      : `timed out after ${timeoutMs} ms`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '');
}

export async function runActions(
  page: Page,
  actions: ReadonlyArray<{ type: string }>,
  catalog: ActionCatalog,
  options: RunActionsOptions,
): Promise<ActionResults> {
  const results: ActionResults = { jsResults: null, screenshots: null, errors: [] };
  let outputBytes = 0;
  const account = (size: number) => {
    outputBytes += size;
    if (outputBytes > options.maxOutputBytes)
      throw new Error(`screenshots and script results exceed ${options.maxOutputBytes} bytes in total`);
  };
  for (const [index, raw] of actions.entries()) {
    const handler = catalog.find(raw.type);
    // The request validator refuses unknown types; this guards callers that skip it.
    if (!handler) throw new TrawlError('capability_missing', `actions[${index}]: no enabled plugin runs action "${raw.type}"`);
    if (handler.yields === 'jsResult') results.jsResults ??= [];
    if (handler.yields === 'screenshot') results.screenshots ??= [];
    try {
      const output = await handler.run(page, handler.schema.parse(raw), { index, timeoutMs: options.timeoutMs });
      if (output && 'jsResult' in output) {
        account(JSON.stringify(output.jsResult).length);
        results.jsResults?.push(output.jsResult);
      }
      if (output && 'screenshot' in output) {
        const data = toBase64(output.screenshot);
        account(data.length);
        results.screenshots?.push({ index, data });
      }
      await options.settle();
    } catch (err) {
      if (page.isClosed() || options.signal.aborted || (err instanceof TrawlError && err.code === 'timeout')) throw err;
      const reason = describeActionError(err, raw, options.timeoutMs);
      if (!options.ignoreErrors)
        throw new TrawlError('unprocessable', `Action actions[${index}] (${raw.type}) failed: ${reason}`, { cause: err });
      results.errors.push({ index, type: raw.type, error: reason });
      if (handler.yields === 'jsResult') results.jsResults?.push(null);
    }
  }
  return results;
}
