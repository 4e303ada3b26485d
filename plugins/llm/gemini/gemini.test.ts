// llm.gemini through the real @google/genai client, its requests carried by the core HTTP client
// (SSRF guard on, the configured base URL's origin allowed), against a protocol-faithful Gemini
// API server (test/servers/gemini.ts): the generateContent body (systemInstruction, contents with
// the model's turns, generationConfig with responseMimeType and responseJsonSchema), MAX_TOKENS,
// a rejected key, an unknown model, 429 RESOURCE_EXHAUSTED with its RetryInfo delay, a blocked
// prompt, a hang, and models.get for health.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { llmHandler, llmRequest, rejection } from '../../../core/testing.ts';
import { GEMINI_TEST_KEY, geminiError, geminiRateLimited, startGeminiServer } from '../../../test/servers/gemini.ts';
import { json } from '../../../test/servers/search-provider.ts';
import { geminiLlm } from './gemini.ts';

const server = startGeminiServer({ answer: () => '{"title":"Tides"}' });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.answer = () => '{"title":"Tides"}';
});

const handler = (extra: Record<string, unknown> = {}) => llmHandler(geminiLlm, { apiKey: GEMINI_TEST_KEY, baseUrl: server.url, ...extra });
const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
};

describe('llm.gemini', () => {
  test('generateContent with the system instruction, the turns and a JSON schema', async () => {
    const request = llmRequest('Title?', { schema, maxOutputTokens: 128 });
    request.messages.push({ role: 'assistant', content: 'not json' }, { role: 'user', content: 'Again, as JSON.' });
    const answer = await (await handler()).complete(request);
    const [sent] = server.requests;
    expect([sent!.method, sent!.path, sent!.headers['x-goog-api-key']]).toEqual([
      'POST',
      '/v1beta/models/gemini-2.5-flash:generateContent',
      GEMINI_TEST_KEY,
    ]);
    const body = JSON.parse(sent!.body);
    expect(body.systemInstruction.parts).toEqual([{ text: 'You are terse.' }]);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Title?' }] },
      { role: 'model', parts: [{ text: 'not json' }] },
      { role: 'user', parts: [{ text: 'Again, as JSON.' }] },
    ]);
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 128,
      temperature: 0,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    });
    expect(answer).toEqual({
      text: '{"title":"Tides"}',
      truncated: false,
      usage: { inputTokens: 12, outputTokens: 5 },
      model: 'gemini-2.5-flash',
    });
  });

  test('MAX_TOKENS is a cut-off answer; a thinking budget is passed on', async () => {
    server.answer = () => ({ content: '{"tit', truncated: true });
    expect(await (await handler({ thinkingBudget: 0 })).complete(llmRequest('x', { schema }))).toMatchObject({
      text: '{"tit',
      truncated: true,
    });
    expect(JSON.parse(server.requests[0]!.body).generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
  });

  test('a rejected key, an unknown model, a rate limit with its RetryInfo delay, a blocked prompt', async () => {
    expect((await rejection((await handler({ apiKey: 'AIzaWrong' })).complete(llmRequest('x')))).message).toBe(
      'the API key was rejected (HTTP 400: INVALID_ARGUMENT: API key not valid. Please pass a valid API key.)',
    );
    expect((await rejection((await handler({ model: 'gemini-0' })).complete(llmRequest('x')))).message).toStartWith(
      'HTTP 404: NOT_FOUND: models/gemini-0 is not found for API version v1beta',
    );
    server.script(geminiRateLimited(3));
    expect(await rejection((await handler()).complete(llmRequest('x')))).toMatchObject({
      retryAfterSeconds: 3,
      message:
        'rate limited (HTTP 429: RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details.); retry after 3 s',
    });
    server.script(() =>
      json({
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
        modelVersion: 'gemini-2.5-flash',
      }),
    );
    expect((await rejection((await handler()).complete(llmRequest('x')))).message).toBe('the prompt was blocked (PROHIBITED_CONTENT)');
  });

  test('a schema the API refuses (400 INVALID_ARGUMENT) is an error in its words', async () => {
    server.script(() =>
      geminiError(
        400,
        'INVALID_ARGUMENT',
        'Invalid JSON payload received. Unknown name "patternProperties" at \'generation_config.response_json_schema\': Cannot find field.',
      ),
    );
    expect((await rejection((await handler()).complete(llmRequest('x', { schema })))).message).toBe(
      'HTTP 400: INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "patternProperties" at \'generation_config.response_json_schema\': Cannot find field.',
    );
  });

  test('a server that does not answer is a 504 after the time limit', async () => {
    server.script(() => new Promise<Response>(() => {}));
    const error = await rejection((await handler({ timeoutMs: 1000 })).complete(llmRequest('x')));
    expect([error.code, error.status]).toEqual(['gateway_timeout', 504]);
  });

  test('status from models.get: there, unknown, key rejected, nothing listening', async () => {
    const endpoint = `${server.url}/v1beta/models/gemini-2.5-flash:generateContent`;
    expect(await (await handler()).status(AbortSignal.timeout(2000))).toEqual({ status: 'ok', model: 'gemini-2.5-flash', endpoint });
    expect(server.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash');
    expect((await (await handler({ model: 'gemini-0' })).status(AbortSignal.timeout(2000))).status).toBe('model missing');
    expect((await (await handler({ apiKey: 'AIzaWrong' })).status(AbortSignal.timeout(2000))).status).toBe('error');
    expect(
      (await (await llmHandler(geminiLlm, { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' })).status(AbortSignal.timeout(2000))).status,
    ).toBe('unreachable');
  });
});
