/**
 * Ollama's REST API as its docs/api.md describes it: `POST /api/chat` with `model`, `messages`
 * ({role, content}), `format` ("json" or a JSON Schema object), `options` (`num_ctx`,
 * `num_predict`, `temperature`, …) and `stream` — which defaults to true, so a request that does
 * not send `stream: false` gets the NDJSON stream of partial messages. The final (or only)
 * object has `done: true`, `done_reason` (`stop`, or `length` when `num_predict` cut it off),
 * `prompt_eval_count` and `eval_count`. A model that is not pulled is a 404 `{error}`.
 * `GET /api/version` and `GET /api/tags` (the pulled models) are what health checks read.
 */
import { answerOf, isObject, tokens, type Answerer, type Conversation } from './llm-answers.ts';
import { json, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export const OLLAMA_VERSION = '0.12.6';

export interface OllamaServer extends ProviderServer {
  answer: Answerer;
  /** Pulled models, as `name:tag`. */
  pulled: string[];
  conversations: Conversation[];
}

const fullName = (model: string) => (model.includes(':') ? model : `${model}:latest`);

export function startOllamaServer(options: ProviderServerOptions & { answer?: Answerer; pulled?: string[] } = {}): OllamaServer {
  const server = startProviderServer(options, (req, self) => {
    const state = self as OllamaServer;
    if (req.method === 'GET' && req.path === '/api/version') return json({ version: OLLAMA_VERSION });
    if (req.method === 'GET' && req.path === '/api/tags') {
      return json({
        models: state.pulled.map((name) => ({
          name,
          model: name,
          modified_at: '2025-10-01T12:00:00.000000000Z',
          size: 397_821_319,
          digest: 'a8b0c5157701',
          details: {
            parent_model: '',
            format: 'gguf',
            family: 'qwen2',
            families: ['qwen2'],
            parameter_size: '494.03M',
            quantization_level: 'Q4_K_M',
          },
        })),
      });
    }
    if (req.method !== 'POST' || req.path !== '/api/chat')
      return new Response('404 page not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body);
    } catch {
      return json({ error: 'invalid character in request body' }, 400);
    }
    if (typeof body.model !== 'string' || !body.model) return json({ error: 'model is required' }, 400);
    if (!state.pulled.includes(fullName(body.model))) return json({ error: `model "${body.model}" not found, try pulling it first` }, 404);
    const messages = body.messages;
    if (
      !Array.isArray(messages) ||
      messages.some(
        (m) => !isObject(m) || !['system', 'user', 'assistant', 'tool'].includes(String(m.role)) || typeof m.content !== 'string',
      )
    ) {
      return json({ error: 'invalid message format' }, 400);
    }
    if (body.format !== undefined && body.format !== '' && body.format !== 'json' && !isObject(body.format))
      return json({ error: 'invalid format: expected "json" or a JSON schema' }, 400);
    const opts = isObject(body.options) ? body.options : {};
    for (const key of ['num_ctx', 'num_predict']) {
      if (opts[key] !== undefined && !Number.isInteger(opts[key])) return json({ error: `option "${key}" must be of type integer` }, 400);
    }
    const conversation: Conversation = {
      messages: messages as Conversation['messages'],
      schema: isObject(body.format) ? body.format : undefined,
      maxTokens: opts.num_predict as number | undefined,
      model: body.model,
    };
    state.conversations.push(conversation);
    const answer = answerOf(state.answer(conversation));
    const final = {
      model: body.model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content: answer.content },
      done_reason: answer.truncated ? 'length' : 'stop',
      done: true,
      total_duration: 512_000_000,
      load_duration: 12_000_000,
      prompt_eval_count: tokens(messages.map((m) => String(m.content)).join('\n')),
      prompt_eval_duration: 120_000_000,
      eval_count: tokens(answer.content),
      eval_duration: 380_000_000,
    };
    if (body.stream === false) return json(final);
    // Streaming (the default): a partial message per line, then the final object with empty content.
    const lines = [...(answer.content.match(/[\s\S]{1,8}/g) ?? [])].map((piece) =>
      JSON.stringify({ model: body.model, created_at: final.created_at, message: { role: 'assistant', content: piece }, done: false }),
    );
    lines.push(JSON.stringify({ ...final, message: { role: 'assistant', content: '' } }));
    return new Response(`${lines.join('\n')}\n`, { headers: { 'content-type': 'application/x-ndjson' } });
  });
  return Object.assign(server, {
    answer: options.answer ?? (() => '{}'),
    pulled: (options.pulled ?? ['qwen2.5:0.5b']).map(fullName),
    conversations: [] as Conversation[],
  });
}
