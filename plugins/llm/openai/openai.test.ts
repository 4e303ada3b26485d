// llm.openai against a protocol-faithful OpenAI chat completions server (test/servers/openai.ts),
// through the real plugin and core HTTP client with the SSRF guard on: the documented request
// (key, model, messages, max_completion_tokens, response_format json_schema strict — which the
// server checks as OpenAI does), answers mapped back from strict mode, `finish_reason: length`,
// prose instead of JSON, 429 with Retry-After, an exhausted quota, a rejected key, an unknown
// model, a refusal, a server that hangs, and the /models health check.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { llmHandler, llmRequest, rejection } from '../../../core/testing.ts';
import { lastUser } from '../../../test/servers/llm-answers.ts';
import {
  OPENAI_TEST_KEY,
  openaiError,
  openaiQuotaExceeded,
  openaiRateLimited,
  proseAnswer,
  startOpenAiServer,
} from '../../../test/servers/openai.ts';
import { openaiLlm } from './openai.ts';

const server = startOpenAiServer({ answer: () => '{"name":"Widget","price":12.5,"tags":null}' });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.conversations.length = 0;
  server.answer = () => '{"name":"Widget","price":12.5,"tags":null}';
});

const handler = (extra: Record<string, unknown> = {}) =>
  llmHandler(openaiLlm, { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${server.url}/v1`, ...extra });
const product = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name', 'price'],
};

describe('llm.openai', () => {
  test('sends the documented request with a strict json_schema and maps the answer back', async () => {
    const answer = await (await handler()).complete(
      llmRequest('Extract the product.', { schema: product, schemaName: 'product', maxOutputTokens: 300 }),
    );
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${OPENAI_TEST_KEY}`);
    const body = JSON.parse(request!.body);
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.max_completion_tokens).toBe(300);
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Extract the product.' },
    ]);
    // Strict mode: every property required, the optional one nullable, minLength left out, no extra keys.
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'product',
        strict: true,
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, price: { type: 'number' }, tags: { type: ['array', 'null'], items: { type: 'string' } } },
          required: ['name', 'price', 'tags'],
          additionalProperties: false,
        },
      },
    });
    // The null the model gave for the optional `tags` is dropped again.
    expect(answer).toEqual({
      text: '{"name":"Widget","price":12.5,"tags":null}',
      json: { name: 'Widget', price: 12.5 },
      truncated: false,
      usage: { inputTokens: expect.any(Number), outputTokens: 11 },
      model: 'gpt-4o-mini-2024-07-18',
    });
  });

  test('a schema with an array root, definitions and oneOf is accepted by strict mode and unwrapped', async () => {
    server.answer = () => '{"value":[{"city":"Oslo","size":{"km2":454}},{"city":"Bergen","size":null}]}';
    const cities = {
      type: 'array',
      items: { $ref: '#/definitions/city' },
      definitions: {
        city: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            size: { oneOf: [{ type: 'object', properties: { km2: { type: 'number' } }, required: ['km2'] }, { type: 'string' }] },
          },
          required: ['city'],
        },
      },
    };
    const answer = await (await handler()).complete(llmRequest('Cities?', { schema: cities }));
    const sent = JSON.parse(server.requests[0]!.body).response_format.json_schema;
    expect(sent.strict).toBe(true);
    expect(sent.schema.properties.value.items).toEqual({ $ref: '#/$defs/city' });
    expect(sent.schema.$defs.city.properties.size).toEqual({
      anyOf: [
        {
          anyOf: [
            { type: 'object', properties: { km2: { type: 'number' } }, required: ['km2'], additionalProperties: false },
            { type: 'string' },
          ],
        },
        { type: 'null' },
      ],
    });
    expect(answer.json).toEqual([{ city: 'Oslo', size: { km2: 454 } }, { city: 'Bergen' }]);
  });

  test('an object of free keys cannot be strict: sent with strict false', async () => {
    server.answer = () => '{"prices":{"small":3,"large":5}}';
    const answer = await (await handler()).complete(
      llmRequest('Prices?', {
        schema: {
          type: 'object',
          properties: { prices: { type: 'object', additionalProperties: { type: 'number' } } },
          required: ['prices'],
        },
      }),
    );
    expect(JSON.parse(server.requests[0]!.body).response_format.json_schema.strict).toBe(false);
    expect(answer.json).toEqual({ prices: { small: 3, large: 5 } });
  });

  test('finish_reason length is a cut-off answer; prose is no JSON', async () => {
    server.answer = () => ({ content: '{"name":"Wid', truncated: true });
    expect(await (await handler()).complete(llmRequest('x', { schema: product }))).toMatchObject({
      text: '{"name":"Wid',
      json: undefined,
      truncated: true,
    });
    server.answer = proseAnswer;
    expect(await (await handler()).complete(llmRequest('x', { schema: product }))).toMatchObject({ json: undefined, truncated: false });
  });

  test('without a schema there is no response_format; json_object mode and max_tokens are there for older servers', async () => {
    server.answer = (c) => `echo: ${lastUser(c)}`;
    expect((await (await handler()).complete(llmRequest('hello'))).text).toBe('echo: hello');
    expect(JSON.parse(server.requests[0]!.body).response_format).toBeUndefined();
    server.answer = () => '{"name":"A","price":1}';
    const older = await handler({ responseFormat: 'json_object', maxTokensParameter: 'max_tokens' });
    expect((await older.complete(llmRequest('Answer in JSON.', { schema: product, maxOutputTokens: 99 }))).json).toEqual({
      name: 'A',
      price: 1,
    });
    const body = JSON.parse(server.requests[1]!.body);
    expect([body.response_format, body.max_tokens, body.max_completion_tokens]).toEqual([{ type: 'json_object' }, 99, undefined]);
  });

  test('429 carries its Retry-After; an exhausted quota does not', async () => {
    server.script(openaiRateLimited(7));
    expect(await rejection((await handler()).complete(llmRequest('x')))).toMatchObject({
      code: 'bad_gateway',
      retryAfterSeconds: 7,
      message:
        'rate limited (HTTP 429: Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.); retry after 7 s',
    });
    server.script(openaiQuotaExceeded());
    const quota = await rejection((await handler()).complete(llmRequest('x')));
    expect([quota.message, quota.retryAfterSeconds]).toEqual([
      'quota exceeded (HTTP 429: You exceeded your current quota, please check your plan and billing details.)',
      undefined,
    ]);
  });

  test('a wrong key, an unknown model and a refusal are errors that say so', async () => {
    expect((await rejection((await handler({ apiKey: 'sk-wrong' })).complete(llmRequest('x')))).message).toStartWith(
      'the API key was rejected (HTTP 401: Incorrect API key provided: sk-wro***.',
    );
    expect((await rejection((await handler({ model: 'gpt-9' })).complete(llmRequest('x')))).message).toBe(
      'HTTP 404: The model `gpt-9` does not exist or you do not have access to it.',
    );
    server.script(() =>
      Response.json({
        id: 'c',
        object: 'chat.completion',
        model: 'gpt-4o-mini',
        choices: [
          { index: 0, message: { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." }, finish_reason: 'stop' },
        ],
      }),
    );
    expect((await rejection((await handler()).complete(llmRequest('x')))).message).toBe(
      "the model refused: I'm sorry, I can't help with that.",
    );
  });

  test('a schema the server refuses (400) is an error in its words', async () => {
    server.script(() =>
      openaiError(
        400,
        "Invalid schema for response_format 'product': In context=('properties', 'price'), 'minimum' is not permitted.",
        'invalid_request_error',
        null,
        'response_format',
      ),
    );
    expect(await rejection((await handler()).complete(llmRequest('x', { schema: product })))).toMatchObject({
      code: 'bad_gateway',
      status: 502,
      message: "HTTP 400: Invalid schema for response_format 'product': In context=('properties', 'price'), 'minimum' is not permitted.",
    });
  });

  test("a server that does not answer is a 504 after the plugin's time limit", async () => {
    server.script(() => new Promise<Response>(() => {}));
    const started = Date.now();
    const error = await rejection((await handler({ timeoutMs: 1000 })).complete(llmRequest('x')));
    expect([error.code, error.status, error.message]).toEqual([
      'gateway_timeout',
      504,
      `no answer from ${new URL(server.url).host} within 1000 ms`,
    ]);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  test('status: the model listed, not listed, a rejected key, nothing listening', async () => {
    const endpoint = `${server.url}/v1/chat/completions`;
    expect(await (await handler()).status(AbortSignal.timeout(2000))).toEqual({ status: 'ok', model: 'gpt-4o-mini', endpoint });
    expect(await (await handler({ model: 'gpt-9' })).status(AbortSignal.timeout(2000))).toEqual({
      status: 'model missing',
      model: 'gpt-9',
      endpoint,
      detail: 'the server does not list model "gpt-9"',
    });
    expect(await (await handler({ apiKey: 'sk-wrong' })).status(AbortSignal.timeout(2000))).toMatchObject({
      status: 'error',
      detail: expect.stringContaining('the API key was rejected'),
    });
    const closed = await llmHandler(openaiLlm, { model: 'm', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(await closed.status(AbortSignal.timeout(2000))).toMatchObject({
      status: 'unreachable',
      detail: expect.stringMatching(/^could not reach 127\.0\.0\.1:9: connection refused/),
    });
  });
});
