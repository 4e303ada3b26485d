/**
 * The `[llm]` section: which configured language-model provider answers, how long a call may
 * take, how long an answer may be, how long a rate limit is waited out, how a long page is split,
 * how large a request's JSON Schema may be, and how /health asks the providers. The providers
 * themselves are plugins (`[plugins.llm.*]`), each enabled by its own settings.
 */
import { z } from 'zod';

export const llmConfigSchema = z.strictObject({
  /** The provider that answers, by plugin name (`ollama`); unset: the first enabled in the built-in order. */
  provider: z.string().min(1).optional(),
  /** One request to the model, a retry and any wait for a rate limit included. */
  timeoutMs: z.number().int().min(1000).max(900_000).default(120_000),
  /** The longest answer asked for, in tokens. */
  maxOutputTokens: z.number().int().min(64).max(65_536).default(2048),
  /** A 429 whose Retry-After is at most this long is waited out once; a longer one is answered 503 with it. */
  maxRetryWaitSeconds: z.number().int().min(0).max(300).default(20),
  /** A page longer than the model's context is split into at most this many parts; the rest is left out, with a warning. */
  maxChunks: z.number().int().min(1).max(64).default(8),
  /** The largest JSON Schema a request may send, serialized. */
  maxSchemaBytes: z.number().int().min(256).max(1_048_576).default(32_768),
  /** How long /health waits for a provider's answer. */
  healthTimeoutMs: z.number().int().min(100).max(30_000).default(2000),
  /** How long /health reuses a provider's status. */
  healthCacheSeconds: z.number().int().min(0).max(3600).default(15),
});

export type LlmSettings = z.output<typeof llmConfigSchema>;
