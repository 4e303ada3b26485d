/**
 * Ollama's own API: `POST <baseUrl>/api/chat` with `{model, messages, stream: false, format:
 * <JSON Schema>, options: {num_ctx, num_predict, temperature}}` → `{message: {content}, done_reason,
 * prompt_eval_count, eval_count}`; `done_reason: "length"` is a cut-off answer. Errors are `{error}`
 * (404 when the model is not pulled). Health: `GET /api/version` (is it there) and `GET /api/tags`
 * (is the model pulled; `llama3.2` is `llama3.2:latest`). Enabled by setting `model`.
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
  statusError,
  Tokens,
} from '../../../core/kit.ts';
import { failedStatus, llmOptions } from '../shared/options.ts';

interface ChatAnswer {
  model?: string;
  message?: { content?: string };
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
}

/** `llama3.2` and `llama3.2:latest` are one model. */
const sameModel = (a: string, b: string) => (a.includes(':') ? a : `${a}:latest`) === (b.includes(':') ? b : `${b}:latest`);

export const ollamaLlm = definePlugin({
  kind: 'llm',
  name: 'ollama',
  description: 'Ollama (local models) through /api/chat with the JSON Schema as `format`; enabled by setting `model`.',
  enabledBy: ['model'],
  options: z.strictObject({
    model: llmOptions.model.describe('A pulled model (e.g. qwen2.5:7b); setting it enables the provider.'),
    baseUrl: llmOptions.baseUrl('http://127.0.0.1:11434'),
    contextTokens: llmOptions
      .contextTokens(8192)
      .describe('Sent as `num_ctx`: the context Ollama gives the model (its own default is smaller); longer pages are split to fit.'),
    timeoutMs: llmOptions.timeoutMs,
    keepAlive: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .optional()
      .describe('How long Ollama keeps the model loaded after a request (e.g. "10m", "-1" for always); unset: its default.'),
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const model = options.model!;
    const chat = joinUrl(options.baseUrl, '/api/chat');
    const failure = (response: Parameters<typeof statusError>[0]) => {
      const said = detail(errorJson(response)?.error);
      if (response.status === 404)
        return providerError(
          `model "${model}" is not available (HTTP 404${said ? `: ${said}` : ''}); pull it with \`ollama pull ${model}\``,
        );
      return statusError(response, said);
    };

    return {
      contextTokens: options.contextTokens,
      concurrency: 1,
      async complete(request) {
        const response = await callProvider(http, chat, {
          json: {
            model,
            messages: request.messages,
            stream: false,
            ...(request.schema ? { format: request.schema } : {}),
            options: { num_ctx: options.contextTokens, num_predict: request.maxOutputTokens, temperature: request.temperature ?? 0 },
            ...(options.keepAlive ? { keep_alive: options.keepAlive } : {}),
          },
          timeoutMs: options.timeoutMs,
          signal: request.signal,
        });
        if (response.status >= 400) throw failure(response);
        const answer = jsonOf(response) as ChatAnswer;
        if (typeof answer?.message?.content !== 'string') throw providerError('answered without `message.content`');
        return {
          text: answer.message.content,
          truncated: answer.done_reason === 'length',
          usage: { inputTokens: answer.prompt_eval_count ?? 0, outputTokens: answer.eval_count ?? 0 },
          model: answer.model || model,
        };
      },
      async status(signal) {
        const endpoint = endpointOf(chat);
        try {
          const version = await callProvider(http, joinUrl(options.baseUrl, '/api/version'), { timeoutMs: options.timeoutMs, signal });
          if (version.status >= 400) return { status: 'error', model, endpoint, detail: statusError(version, '').message };
          const running = (jsonOf(version) as { version?: unknown })?.version;
          const tags = await callProvider(http, joinUrl(options.baseUrl, '/api/tags'), { timeoutMs: options.timeoutMs, signal });
          if (tags.status >= 400) return { status: 'error', model, endpoint, detail: statusError(tags, '').message };
          const list = (jsonOf(tags) as { models?: Array<{ name?: unknown; model?: unknown }> })?.models ?? [];
          const pulled = list.some((m) => [m.name, m.model].some((name) => typeof name === 'string' && sameModel(name, model)));
          const runtime = typeof running === 'string' ? { version: running } : undefined;
          return pulled
            ? { status: 'ok', model, endpoint, runtime }
            : { status: 'model missing', model, endpoint, runtime, detail: `model "${model}" is not pulled; run \`ollama pull ${model}\`` };
        } catch (err) {
          return failedStatus(err, model, endpoint);
        }
      },
    };
  },
});
