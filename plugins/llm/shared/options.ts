/**
 * What the language-model provider plugins share: their option fields (where requests go, the
 * model, its context window, the time limit of one request) and the status /health shows for a
 * provider that could not be asked.
 */
import { z } from 'zod';
import { TrawlError } from '../../../core/kit.ts';
import type { LlmStatus } from '../../../core/kit.ts';

export const llmOptions = {
  baseUrl: (official: string) =>
    z
      .url({ protocol: /^https?$/ })
      .default(official)
      .describe(
        'Where requests go (a proxy, another compatible server, a local test server); its origin may be on loopback or a private network.',
      ),
  model: z.string().trim().min(1).max(200).optional(),
  apiKey: z.string().trim().min(1).optional(),
  contextTokens: (fallback: number) =>
    z
      .number()
      .int()
      .min(1024)
      .max(2_097_152)
      .default(fallback)
      .describe("The model's context window in tokens (prompt and answer); longer pages are split to fit."),
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(900_000)
    .default(120_000)
    .describe('Time limit of one request to the provider (the whole call is bounded by llm.timeoutMs).'),
};

/** The status of a provider whose probe threw: not reachable at all, or answering with an error. */
export function failedStatus(err: unknown, model: string, endpoint: string): LlmStatus {
  const message = err instanceof Error ? err.message : String(err);
  const unreachable = !(err instanceof TrawlError) || /^(could not reach|no answer from)/.test(message) || err.code === 'gateway_timeout';
  return { status: unreachable ? 'unreachable' : 'error', model, endpoint, detail: message };
}
