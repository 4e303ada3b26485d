/**
 * An OpenAI-compatible chat completions API as OpenAI documents it (API reference: Chat, Models;
 * guide: Structured Outputs): `POST /v1/chat/completions` with a bearer key, `model`, `messages`
 * ({role, content}), `max_completion_tokens` (or the deprecated `max_tokens`), and
 * `response_format` — `{type: "json_schema", json_schema: {name, schema, strict}}` or
 * `{type: "json_object"}` (which needs the word "json" in the messages). With `strict: true` the
 * schema must follow strict mode (object root, `additionalProperties: false` and every property
 * required on every object, supported keywords only) or the request is a 400 naming the place.
 * Replies are `chat.completion` objects with `finish_reason` (`length` when cut off) and `usage`;
 * errors are `{error: {message, type, param, code}}`. `GET /v1/models` lists the models.
 */
import { answerOf, isObject, tokens, type Answerer, type Conversation } from './llm-answers.ts';
import { json, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export const OPENAI_TEST_KEY = 'sk-test-0123456789';

export interface OpenAiServer extends ProviderServer {
  answer: Answerer;
  models: string[];
  /** The conversations received, in order (parsed from the requests). */
  conversations: Conversation[];
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
/** Keywords strict mode accepts (Structured Outputs guide, "Supported schemas"). */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

export const openaiError = (
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
  headers: Record<string, string> = {},
) => json({ error: { message, type, param, code } }, status, headers);

/** Why a strict schema is refused, OpenAI style, or null. */
export function strictProblem(schema: unknown, name: string): string | null {
  const where = (path: string[]) => `In context=(${path.map((p) => `'${p}'`).join(', ')})`;
  if (!isObject(schema) || schema.type !== 'object')
    return `Invalid schema for response_format '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${isObject(schema) ? schema.type : typeof schema}"'.`;
  const walk = (node: unknown, path: string[]): string | null => {
    if (!isObject(node)) return null;
    for (const key of Object.keys(node)) {
      if (!STRICT_KEYWORDS.has(key)) return `Invalid schema for response_format '${name}': ${where(path)}, '${key}' is not permitted.`;
    }
    const isObj = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
    if (isObj) {
      if (node.additionalProperties !== false)
        return `Invalid schema for response_format '${name}': ${where(path)}, 'additionalProperties' is required to be supplied and to be false.`;
      const keys = Object.keys(isObject(node.properties) ? node.properties : {});
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = keys.find((k) => !required.includes(k));
      if (missing)
        return `Invalid schema for response_format '${name}': ${where(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
      for (const key of keys) {
        const problem = walk((node.properties as Record<string, unknown>)[key], [...path, 'properties', key]);
        if (problem) return problem;
      }
    }
    for (const key of ['items', 'additionalProperties'] as const) {
      const problem = isObject(node[key]) ? walk(node[key], [...path, key]) : null;
      if (problem) return problem;
    }
    for (const key of ['anyOf'] as const) {
      for (const [i, branch] of ((node[key] as unknown[]) ?? []).entries()) {
        const problem = walk(branch, [...path, key, String(i)]);
        if (problem) return problem;
      }
    }
    for (const [def, value] of Object.entries(isObject(node.$defs) ? node.$defs : {})) {
      const problem = walk(value, [...path, '$defs', def]);
      if (problem) return problem;
    }
    return null;
  };
  return walk(schema, []);
}

export function startOpenAiServer(
  options: ProviderServerOptions & { answer?: Answerer; models?: string[]; key?: string } = {},
): OpenAiServer {
  const key = options.key ?? OPENAI_TEST_KEY;
  const server = startProviderServer(options, (req, self) => {
    const state = self as OpenAiServer;
    if (req.headers.authorization !== `Bearer ${key}`) {
      return openaiError(
        401,
        `Incorrect API key provided: ${(req.headers.authorization ?? '').replace(/^Bearer /, '').slice(0, 6)}***. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    if (req.method === 'GET' && req.path === '/v1/models') {
      return json({
        object: 'list',
        data: state.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
      });
    }
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions')
      return openaiError(404, `Invalid URL (${req.method} ${req.path})`, 'invalid_request_error');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body);
    } catch {
      return openaiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    if (typeof body.model !== 'string') return openaiError(400, 'you must provide a model parameter', 'invalid_request_error');
    if (!state.models.includes(body.model))
      return openaiError(
        404,
        `The model \`${body.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0)
      return openaiError(
        400,
        "Invalid 'messages': empty array. Expected an array with minimum length 1.",
        'invalid_request_error',
        'empty_array',
        'messages',
      );
    for (const [i, m] of messages.entries()) {
      if (!isObject(m) || !ROLES.has(String(m.role)) || typeof m.content !== 'string')
        return openaiError(400, `Invalid value for 'messages[${i}]'.`, 'invalid_request_error', null, `messages[${i}]`);
    }
    const limit = body.max_completion_tokens ?? body.max_tokens;
    if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1))
      return openaiError(
        400,
        "Invalid 'max_completion_tokens': integer below minimum value.",
        'invalid_request_error',
        'integer_below_min_value',
        'max_completion_tokens',
      );
    let schema: Record<string, unknown> | undefined;
    const format = body.response_format;
    if (format !== undefined) {
      if (!isObject(format) || !['text', 'json_object', 'json_schema'].includes(String(format.type)))
        return openaiError(400, "Invalid value for 'response_format.type'.", 'invalid_request_error', null, 'response_format.type');
      if (format.type === 'json_object' && !messages.some((m) => /json/i.test(String(m.content)))) {
        return openaiError(
          400,
          "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
          'invalid_request_error',
          null,
          'messages',
        );
      }
      if (format.type === 'json_schema') {
        const spec = format.json_schema;
        if (!isObject(spec) || typeof spec.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name))
          return openaiError(
            400,
            "Invalid 'response_format.json_schema.name'.",
            'invalid_request_error',
            null,
            'response_format.json_schema.name',
          );
        if (!isObject(spec.schema))
          return openaiError(
            400,
            "Missing required parameter: 'response_format.json_schema.schema'.",
            'invalid_request_error',
            'missing_required_parameter',
            'response_format.json_schema.schema',
          );
        if (spec.strict === true) {
          const problem = strictProblem(spec.schema, spec.name);
          if (problem) return openaiError(400, problem, 'invalid_request_error', null, 'response_format');
        }
        schema = spec.schema;
      }
    }
    const conversation: Conversation = {
      messages: messages as Conversation['messages'],
      schema,
      maxTokens: limit as number | undefined,
      model: body.model,
    };
    state.conversations.push(conversation);
    const answer = answerOf(state.answer(conversation));
    const prompt = tokens(messages.map((m) => String(m.content)).join('\n'));
    const completion = tokens(answer.content);
    return json({
      id: `chatcmpl-${state.conversations.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: `${body.model}-2024-07-18`,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: answer.truncated ? 'length' : 'stop',
        },
      ],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      system_fingerprint: 'fp_test',
    });
  });
  return Object.assign(server, {
    answer: options.answer ?? (() => '{}'),
    models: options.models ?? ['gpt-4o-mini'],
    conversations: [] as Conversation[],
  });
}

/** A 429 the way OpenAI sends one: the wait in `retry-after` (seconds) and the x-ratelimit headers. */
export const openaiRateLimited = (seconds: number) => () =>
  openaiError(
    429,
    'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.',
    'requests',
    'rate_limit_exceeded',
    null,
    {
      'retry-after': String(seconds),
      'x-ratelimit-limit-requests': '3',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': `${seconds}s`,
    },
  );

/** A spent quota: 429 too, but no wait will help. */
export const openaiQuotaExceeded = () => () =>
  openaiError(
    429,
    'You exceeded your current quota, please check your plan and billing details.',
    'insufficient_quota',
    'insufficient_quota',
  );

/** A model message that is not JSON, as a model ignoring the format would write it. */
export const proseAnswer = () => 'Sure! Here is the information you asked for: the price is 12 euros.';
