/**
 * Any OpenAI-compatible chat completions server (OpenAI, vLLM, llama.cpp's server, LM Studio, …):
 * `POST <baseUrl>/chat/completions` with `{model, messages, max_completion_tokens, response_format:
 * {type: "json_schema", json_schema: {name, schema, strict}}}` → `{choices: [{message: {content,
 * refusal}, finish_reason}], usage: {prompt_tokens, completion_tokens}}`. The schema is adapted to
 * strict mode and the answer mapped back (strict.ts). `finish_reason: "length"` is a cut-off answer;
 * a refusal or a content filter is a provider error. Errors are `{error: {message, type, code}}`;
 * a 429 waits for `retry-after`, `retry-after-ms` or `x-ratelimit-reset-*`, an exhausted quota does
 * not. Health: `GET <baseUrl>/models` lists the model. Enabled by setting `model`.
 */
import { z } from 'zod';
import {
  callProvider,
  definePlugin,
  detail,
  endpointOf,
  errorJson,
  joinUrl,
  jsonOf,
  providerError,
  retryAfterSeconds,
  statusError,
  Tokens,
} from '../../../core/kit.ts';
import type { FetchedResponse, LlmRequest } from '../../../core/kit.ts';
import { failedStatus, llmOptions } from '../shared/options.ts';
import { strictSchema } from './strict.ts';

interface ChatCompletion {
  model?: string;
  choices?: Array<{ message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** `6m0s`, `1.5s`, `20ms` (OpenAI's x-ratelimit-reset-* values) in seconds. */
function durationSeconds(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  let total = 0;
  for (const [, value, unit] of raw.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g))
    total += Number(value) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit as 'ms'];
  return total > 0 ? Math.max(1, Math.ceil(total)) : undefined;
}

function rateLimitWait(headers: Record<string, string>): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms > 0) return Math.max(1, Math.ceil(ms / 1000));
  return retryAfterSeconds(headers) ?? durationSeconds(headers['x-ratelimit-reset-requests'] ?? headers['x-ratelimit-reset-tokens']);
}

function failure(response: FetchedResponse) {
  const error = (errorJson(response)?.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
  const said = detail(error.message);
  // A spent quota is answered 429 too, but waiting does not help.
  if (response.status === 429 && (error.code === 'insufficient_quota' || error.type === 'insufficient_quota'))
    return providerError(`quota exceeded (HTTP 429: ${said})`);
  return statusError(response, said, { keyed: true, wait: response.status === 429 ? rateLimitWait(response.headers) : undefined });
}

export const openaiLlm = definePlugin({
  kind: 'llm',
  name: 'openai',
  description: 'Any OpenAI-compatible chat completions server, with structured output (json_schema, strict); enabled by setting `model`.',
  enabledBy: ['model'],
  options: z.strictObject({
    model: llmOptions.model.describe(
      'The model to use (e.g. gpt-4o-mini, or the name a compatible server gives its model); setting it enables the provider.',
    ),
    apiKey: llmOptions.apiKey.describe('Sent as `Authorization: Bearer <key>`; servers without keys need none.'),
    baseUrl: llmOptions.baseUrl('https://api.openai.com/v1'),
    contextTokens: llmOptions.contextTokens(128_000),
    timeoutMs: llmOptions.timeoutMs,
    responseFormat: z
      .enum(['json_schema', 'json_object'])
      .default('json_schema')
      .describe(
        '`json_schema`: structured output with the schema; `json_object`: JSON mode only, for servers without schemas (the answer is still validated).',
      ),
    maxTokensParameter: z
      .enum(['max_completion_tokens', 'max_tokens'])
      .default('max_completion_tokens')
      .describe(
        'How the answer length is sent: OpenAI documents `max_completion_tokens`; older compatible servers know only `max_tokens`.',
      ),
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const model = options.model!;
    const completions = joinUrl(options.baseUrl, '/chat/completions');
    const models = joinUrl(options.baseUrl, '/models');
    const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};

    const responseFormat = (request: LlmRequest) => {
      if (!request.schema) return { body: {}, restore: (data: unknown) => data };
      if (options.responseFormat === 'json_object')
        return { body: { response_format: { type: 'json_object' } }, restore: (data: unknown) => data };
      const adapted = strictSchema(request.schema);
      const json_schema = { name: request.schemaName ?? 'answer', schema: adapted.schema, strict: adapted.strict };
      return { body: { response_format: { type: 'json_schema', json_schema } }, restore: adapted.restore };
    };

    return {
      contextTokens: options.contextTokens,
      concurrency: 4,
      async complete(request) {
        const format = responseFormat(request);
        const response = await callProvider(http, completions, {
          headers,
          json: {
            model,
            messages: request.messages,
            [options.maxTokensParameter]: request.maxOutputTokens,
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...format.body,
          },
          timeoutMs: options.timeoutMs,
          signal: request.signal,
        });
        if (response.status >= 400) throw failure(response);
        const answer = jsonOf(response) as ChatCompletion;
        const choice = answer?.choices?.[0];
        if (!choice?.message) throw providerError('answered without a message in `choices`');
        if (choice.message.refusal) throw providerError(`the model refused: ${detail(choice.message.refusal)}`);
        if (choice.finish_reason === 'content_filter') throw providerError("the answer was withheld by the provider's content filter");
        const text = choice.message.content ?? '';
        const truncated = choice.finish_reason === 'length';
        let json: unknown;
        if (request.schema && !truncated) {
          try {
            json = format.restore(JSON.parse(text));
          } catch {
            // Not JSON: the service says so and asks again.
          }
        }
        return {
          text,
          json,
          truncated,
          usage: { inputTokens: answer.usage?.prompt_tokens ?? 0, outputTokens: answer.usage?.completion_tokens ?? 0 },
          model: typeof answer.model === 'string' && answer.model ? answer.model : model,
        };
      },
      async status(signal) {
        const endpoint = endpointOf(completions);
        try {
          const response = await callProvider(http, models, { headers, timeoutMs: options.timeoutMs, signal });
          if (response.status >= 400) return { status: 'error', model, endpoint, detail: failure(response).message };
          const list = (jsonOf(response) as { data?: Array<{ id?: unknown }> })?.data;
          if (!Array.isArray(list)) return { status: 'error', model, endpoint, detail: 'GET /models answered without a `data` list' };
          return list.some((m) => m.id === model)
            ? { status: 'ok', model, endpoint }
            : { status: 'model missing', model, endpoint, detail: `the server does not list model "${model}"` };
        } catch (err) {
          return failedStatus(err, model, endpoint);
        }
      },
    };
  },
});
