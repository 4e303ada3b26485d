/**
 * The `llm` plugin kind's contract (re-exported by core/plugin.ts): what a language-model provider
 * is asked (messages, an optional JSON Schema, limits, a signal) and answers (text, parsed JSON,
 * token usage), and what it tells /health. core/llm/service.ts runs it.
 */

/** One message of a conversation with a language model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON Schema, as a plain object. */
export type JsonSchema = Record<string, unknown>;

export interface LlmRequest {
  messages: LlmMessage[];
  /**
   * The JSON Schema the answer must match: the provider asks its model for JSON of this shape in
   * its own way (structured output, a grammar), adapting the schema where it must. The core
   * service validates the answer against the original schema whatever the provider promised.
   */
  schema?: JsonSchema;
  /** A name for the schema (letters, digits, `_`, `-`), for providers that want one. */
  schemaName?: string;
  /** The longest answer, in tokens. */
  maxOutputTokens: number;
  /** Sampling temperature; 0 (the default) asks for the most likely answer. */
  temperature?: number;
  /** Ends the call: the caller went away or the service's time limit is up. */
  signal: AbortSignal;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmAnswer {
  /** The answer as the model wrote it (with a schema: JSON text). */
  text: string;
  /** The answer as JSON, when the provider parsed it (and mapped an adapted schema's answer back); else the service parses `text`. */
  json?: unknown;
  /** The model stopped at `maxOutputTokens`: the answer is cut off. */
  truncated: boolean;
  usage: LlmUsage;
  /** The model that answered, as the provider names it. */
  model: string;
}

/** What /health shows of a provider (never its key). */
export interface LlmStatus {
  /**
   * `ok`: answers and has the model; `unreachable`: no answer; `model missing`: answers without the
   * configured model (or its file is gone); `loading`: a local model still loading; `error`: answers with an error.
   */
  status: 'ok' | 'unreachable' | 'model missing' | 'loading' | 'error';
  /** The configured model (a file name for a local model). */
  model: string;
  /** Where requests go (origin and path; credentials left out). */
  endpoint?: string;
  /** Why the status is not `ok`, in the provider's words. */
  detail?: string;
  /** An in-process runtime: the model's load state and settings. */
  runtime?: Record<string, unknown>;
}

/**
 * A language-model provider. Run mode (core/llm/service.ts): one provider answers, the one
 * `llm.provider` names or else the first enabled. A failure is a TrawlError: `bad_gateway` for
 * what the provider answered (its status and words), with `retryAfterSeconds` for a rate limit;
 * `gateway_timeout` when it did not answer in time. Validation, the retry of an invalid answer
 * and waiting out a rate limit are the service's, not the provider's.
 */
export interface LlmHandler {
  /** The model's context window (prompt and answer) in tokens; longer pages are split to fit. */
  readonly contextTokens: number;
  /** Calls this provider serves well at once (one for a model running in this process). */
  readonly concurrency: number;
  /** The model's own token count, where the provider has its tokenizer; otherwise the service estimates. */
  countTokens?(text: string): number;
  complete(request: LlmRequest): Promise<LlmAnswer>;
  /** Asks the provider whether it works and has the model; `signal` bounds the asking. */
  status(signal: AbortSignal): Promise<LlmStatus>;
}
