// llm.ollama against a protocol-faithful Ollama server (test/servers/ollama.ts), through the real
// plugin and core HTTP client with the SSRF guard on: /api/chat with stream false, the schema as
// `format`, num_ctx and num_predict; `done_reason: length`; a model that is not pulled; a busy
// server; a hang; and health from /api/version and /api/tags.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { llmHandler, llmRequest, rejection } from '../../../core/testing.ts';
import { OLLAMA_VERSION, startOllamaServer } from '../../../test/servers/ollama.ts';
import { json } from '../../../test/servers/search-provider.ts';
import { ollamaLlm } from './ollama.ts';

const server = startOllamaServer({ answer: () => '{"age": 22, "available": false}' });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.answer = () => '{"age": 22, "available": false}';
});

const handler = (extra: Record<string, unknown> = {}) =>
  llmHandler(ollamaLlm, { model: 'qwen2.5:0.5b', baseUrl: server.url, contextTokens: 4096, ...extra });
const schema = { type: 'object', properties: { age: { type: 'integer' }, available: { type: 'boolean' } }, required: ['age', 'available'] };

describe('llm.ollama', () => {
  test('sends /api/chat with stream false, the schema as format and the context and answer limits', async () => {
    const answer = await (await handler({ keepAlive: '10m' })).complete(
      llmRequest('Ollama is 22 years old.', { schema, maxOutputTokens: 200 }),
    );
    const [request] = server.requests;
    expect([request!.method, request!.path]).toEqual(['POST', '/api/chat']);
    expect(JSON.parse(request!.body)).toEqual({
      model: 'qwen2.5:0.5b',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Ollama is 22 years old.' },
      ],
      stream: false,
      format: schema,
      options: { num_ctx: 4096, num_predict: 200, temperature: 0 },
      keep_alive: '10m',
    });
    expect(answer).toEqual({
      text: '{"age": 22, "available": false}',
      truncated: false,
      usage: { inputTokens: 10, outputTokens: 8 },
      model: 'qwen2.5:0.5b',
    });
  });

  test('done_reason length is a cut-off answer', async () => {
    server.answer = () => ({ content: '{"age": 2', truncated: true });
    expect(await (await handler()).complete(llmRequest('x', { schema }))).toMatchObject({ text: '{"age": 2', truncated: true });
  });

  test("a model that is not pulled says how to get it; other failures carry Ollama's words", async () => {
    expect((await rejection((await handler({ model: 'llama3.2' })).complete(llmRequest('x')))).message).toBe(
      'model "llama3.2" is not available (HTTP 404: model "llama3.2" not found, try pulling it first); pull it with `ollama pull llama3.2`',
    );
    server.script(() => json({ error: 'server busy, please try again.  maximum pending requests exceeded' }, 503));
    expect((await rejection((await handler()).complete(llmRequest('x')))).message).toBe(
      'HTTP 503: server busy, please try again. maximum pending requests exceeded',
    );
  });

  test('a format Ollama cannot use (400) is an error in its words', async () => {
    server.script(() => json({ error: 'invalid JSON schema in format' }, 400));
    expect((await rejection((await handler()).complete(llmRequest('x', { schema })))).message).toBe(
      'HTTP 400: invalid JSON schema in format',
    );
  });

  test('a server that does not answer is a 504 after the time limit', async () => {
    server.script(() => new Promise<Response>(() => {}));
    const error = await rejection((await handler({ timeoutMs: 1000 })).complete(llmRequest('x')));
    expect([error.code, error.status]).toEqual(['gateway_timeout', 504]);
  });

  test('status: version and pulled model; a model not pulled; nothing listening', async () => {
    const endpoint = `${server.url}/api/chat`;
    expect(await (await handler({ model: 'qwen2.5:0.5b' })).status(AbortSignal.timeout(2000))).toEqual({
      status: 'ok',
      model: 'qwen2.5:0.5b',
      endpoint,
      runtime: { version: OLLAMA_VERSION },
    });
    server.pulled.push('llama3.2:latest');
    expect((await (await handler({ model: 'llama3.2' })).status(AbortSignal.timeout(2000))).status).toBe('ok');
    server.pulled.pop();
    expect(await (await handler({ model: 'llama3.2' })).status(AbortSignal.timeout(2000))).toEqual({
      status: 'model missing',
      model: 'llama3.2',
      endpoint,
      runtime: { version: OLLAMA_VERSION },
      detail: 'model "llama3.2" is not pulled; run `ollama pull llama3.2`',
    });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/api/version',
      '/api/tags',
      '/api/version',
      '/api/tags',
      '/api/version',
      '/api/tags',
    ]);
    const closed = await llmHandler(ollamaLlm, { model: 'm', baseUrl: 'http://127.0.0.1:9' });
    expect((await closed.status(AbortSignal.timeout(2000))).status).toBe('unreachable');
  });
});
