/**
 * Google's Gemini API through @google/genai: `models.generateContent` with the system messages as
 * `systemInstruction`, `responseMimeType: "application/json"` and the JSON Schema as
 * `responseJsonSchema`; `finishReason: "MAX_TOKENS"` is a cut-off answer, a blocked prompt or a
 * safety stop a provider error. The SDK's requests go through the core HTTP client (fetch.ts),
 * and `baseUrl` replaces Google's address (a proxy, a test server). A 429 waits for its RetryInfo
 * `retryDelay` or Retry-After. Health: `models.get` finds the model. Enabled by setting `apiKey`.
 */
import { z } from 'zod';
import type { Content, GenerateContentResponse } from '@google/genai';
import {
  definePlugin,
  detail,
  endpointOf,
  errorJson,
  providerError,
  retryAfterSeconds,
  statusError,
  Tokens,
  type TrawlError,
} from '../../../core/kit.ts';
import type { FetchedResponse, JsonSchema, LlmMessage } from '../../../core/kit.ts';
import { failedStatus, llmOptions } from '../shared/options.ts';
import { clientFetch } from './fetch.ts';

const WITHHELD = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

/** `{error: {code, message, status, details: [{@type: …RetryInfo, retryDelay: "37s"}, {reason: API_KEY_INVALID}]}}` as an error. */
function failure(response: FetchedResponse): TrawlError {
  const error = (errorJson(response)?.error ?? {}) as { message?: unknown; status?: unknown; details?: Array<Record<string, unknown>> };
  const said = [detail(error.status), detail(error.message)].filter(Boolean).join(': ');
  const details = Array.isArray(error.details) ? error.details : [];
  if (details.some((d) => d.reason === 'API_KEY_INVALID'))
    return providerError(`the API key was rejected (HTTP ${response.status}: ${said})`);
  const delay = details.map((d) => (typeof d.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay) : null)).find(Boolean);
  const wait = delay ? Math.max(1, Math.ceil(Number(delay[1]))) : retryAfterSeconds(response.headers);
  return statusError(response, said, { keyed: true, wait: response.status === 429 ? wait : undefined });
}

/** System messages become the system instruction; the model's turns are role `model`. */
function contents(messages: readonly LlmMessage[]): { system: string; contents: Content[] } {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const turns = messages
    .filter((m) => m.role !== 'system')
    .map((m): Content => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] }));
  return { system, contents: turns };
}

/** Gemini reads JSON Schema keywords but not the document markers. */
function geminiSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

export const geminiLlm = definePlugin({
  kind: 'llm',
  name: 'gemini',
  description: 'Google Gemini through @google/genai, JSON answers with the schema as responseJsonSchema; enabled by setting `apiKey`.',
  enabledBy: ['apiKey'],
  options: z.strictObject({
    apiKey: llmOptions.apiKey.describe('A Gemini API key (Google AI Studio); setting it enables the provider.'),
    model: z.string().trim().min(1).max(200).default('gemini-2.5-flash').describe('The model to use.'),
    baseUrl: llmOptions.baseUrl('https://generativelanguage.googleapis.com'),
    contextTokens: llmOptions.contextTokens(131_072),
    timeoutMs: llmOptions.timeoutMs,
    thinkingBudget: z
      .number()
      .int()
      .min(-1)
      .max(32_768)
      .optional()
      .describe(
        "Tokens a thinking model may think before answering (0: none, -1: its own choice); unset: the model's default. Thinking counts against the answer's token limit.",
      ),
  }),
  async setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const { GoogleGenAI, ApiError } = await import('@google/genai');
    const { model } = options;
    // A client per call: its fetch records that call's response (the SDK's errors lack the headers).
    const client = (signal: AbortSignal) => {
      const recording = clientFetch(http, options.timeoutMs, signal);
      // v1beta: the version Google documents structured output (responseJsonSchema) for.
      const ai = new GoogleGenAI({
        apiKey: options.apiKey!,
        httpOptions: { baseUrl: options.baseUrl, apiVersion: 'v1beta', fetch: recording.fetch },
      });
      return { ai, recording };
    };
    const asError = (err: unknown, last: FetchedResponse | undefined): unknown => {
      if (err instanceof ApiError && last && last.status >= 400) return failure(last);
      if (err instanceof ApiError) return providerError(`HTTP ${err.status}: ${detail(err.message)}`);
      return err;
    };

    return {
      contextTokens: options.contextTokens,
      concurrency: 4,
      async complete(request) {
        const { ai, recording } = client(request.signal);
        const { system, contents: turns } = contents(request.messages);
        let response: GenerateContentResponse;
        try {
          response = await ai.models.generateContent({
            model,
            contents: turns,
            config: {
              ...(system ? { systemInstruction: system } : {}),
              maxOutputTokens: request.maxOutputTokens,
              temperature: request.temperature ?? 0,
              ...(request.schema ? { responseMimeType: 'application/json', responseJsonSchema: geminiSchema(request.schema) } : {}),
              ...(options.thinkingBudget !== undefined ? { thinkingConfig: { thinkingBudget: options.thinkingBudget } } : {}),
              abortSignal: request.signal,
            },
          });
        } catch (err) {
          throw asError(err, recording.last);
        }
        const blocked = response.promptFeedback?.blockReason;
        if (blocked) throw providerError(`the prompt was blocked (${blocked})`);
        const candidate = response.candidates?.[0];
        if (!candidate) throw providerError('answered without a candidate');
        const reason = String(candidate.finishReason ?? '');
        if (WITHHELD.has(reason)) throw providerError(`the answer was withheld (finishReason ${reason})`);
        const usage = response.usageMetadata;
        return {
          text: response.text ?? '',
          truncated: reason === 'MAX_TOKENS',
          usage: {
            inputTokens: usage?.promptTokenCount ?? 0,
            outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
          },
          model: response.modelVersion || model,
        };
      },
      async status(signal) {
        const endpoint = endpointOf(`${options.baseUrl.replace(/\/+$/, '')}/v1beta/models/${model}:generateContent`);
        const { ai, recording } = client(signal);
        try {
          await ai.models.get({ model, config: { abortSignal: signal } });
          return { status: 'ok', model, endpoint };
        } catch (err) {
          const error = asError(err, recording.last);
          if (recording.last?.status === 404) return { status: 'model missing', model, endpoint, detail: (error as Error).message };
          return failedStatus(error, model, endpoint);
        }
      },
    };
  },
});
