// The LLM service through the real OpenAI-compatible provider and a protocol-faithful server:
// the schema stated to the model, an invalid or cut-off answer sent back once with what was wrong,
// a second bad answer a 422, a short 429 waited out (its Retry-After), a long one a 503, a hang a
// 504 at llm.timeoutMs, provider failures 502 naming the provider; provider choice and the 503
// that says what to configure.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { checkedSchema } from '../../core/llm/schema.ts';
import { geminiLlm } from '../../plugins/llm/gemini/gemini.ts';
import { llamaCppLlm } from '../../plugins/llm/llama-cpp/llama-cpp.ts';
import { ollamaLlm } from '../../plugins/llm/ollama/ollama.ts';
import { openaiLlm } from '../../plugins/llm/openai/openai.ts';
import { llmServiceWith, rejection } from '../../core/testing.ts';
import { OPENAI_TEST_KEY, openaiError, openaiRateLimited, proseAnswer, startOpenAiServer } from '../servers/openai.ts';
import { startOllamaServer } from '../servers/ollama.ts';

const openai = startOpenAiServer();
const ollama = startOllamaServer({ answer: () => '{"price": 3}' });
afterAll(async () => {
  await Promise.all([openai.stop(), ollama.stop()]);
});
beforeEach(() => {
  openai.conversations.length = 0;
  openai.requests.length = 0;
});

const PROVIDERS = [openaiLlm, ollamaLlm, geminiLlm, llamaCppLlm];
const openaiConfig = { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } };
const price = checkedSchema({ type: 'object', properties: { price: { type: 'number', minimum: 0 } }, required: ['price'] }, 10_000);
const ask = {
  messages: [
    { role: 'system' as const, content: 'Extract.' },
    { role: 'user' as const, content: 'It costs 3 euros.' },
  ],
  schema: price,
};

/** Answers from the list in turn, then the last one. */
const answers = (...list: Array<string | { content: string; truncated?: boolean }>) => {
  let i = 0;
  return () => list[Math.min(i++, list.length - 1)]!;
};

describe('LLM service', () => {
  test('the schema is stated in the system message as well as sent as structured output', async () => {
    openai.answer = () => '{"price":3}';
    const service = await llmServiceWith(PROVIDERS, openaiConfig);
    const generated = await service.generate(ask);
    expect(generated).toMatchObject({
      data: { price: 3 },
      provider: 'llm.openai',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { inputTokens: expect.any(Number), outputTokens: 3 },
    });
    const [system] = openai.conversations[0]!.messages;
    expect(system!.content).toBe(
      `Extract.\n\nAnswer with one JSON value only, no other text, matching this JSON Schema:\n${JSON.stringify(price.schema)}`,
    );
  });

  test('an answer that is no JSON, or does not match, is sent back once with what was wrong', async () => {
    openai.answer = answers(proseAnswer(), '{"price":3}', '{"price":-1}');
    const service = await llmServiceWith(PROVIDERS, openaiConfig);
    expect((await service.generate(ask)).data).toEqual({ price: 3 });
    const retry = openai.conversations[1]!.messages;
    expect(retry.slice(2)).toEqual([
      { role: 'assistant', content: proseAnswer() },
      {
        role: 'user',
        content: expect.stringMatching(
          /^Your answer is not valid JSON \(.+\)\. Answer again with only the JSON object, complete and matching the schema\.$/,
        ),
      },
    ]);
    // Each call starts from the original conversation: the first bad answer is not carried into the next request.
    expect((await rejection(service.generate(ask))).message).toBe(
      "The model's answer does not match the schema: at /price: must be >= 0 (llm.openai, gpt-4o-mini-2024-07-18; after one retry)",
    );
    expect(openai.conversations[3]!.messages.at(-1)!.content).toStartWith(
      'Your answer does not match the schema: at /price: must be >= 0.',
    );
  });

  test('a cut-off answer is retried with a request to be briefer; twice is a 422', async () => {
    openai.answer = answers({ content: '{"pri', truncated: true }, '{"price":3}');
    const service = await llmServiceWith(PROVIDERS, openaiConfig, { maxOutputTokens: 100 });
    expect((await service.generate(ask)).data).toEqual({ price: 3 });
    expect(openai.conversations[1]!.messages.at(-1)!.content).toBe(
      'Your answer was cut off at the token limit (100 tokens). Be briefer. Answer again with only the JSON object, complete and matching the schema.',
    );
    openai.answer = () => ({ content: '{"pri', truncated: true });
    const error = await rejection(service.generate(ask));
    expect([error.status, error.message]).toEqual([
      422,
      "The model's answer was cut off at the token limit (100 tokens) (llm.openai, gpt-4o-mini-2024-07-18; after one retry)",
    ]);
  });

  test('a 429 with a short Retry-After is waited out once; a longer one is a 503 with it', async () => {
    openai.answer = () => '{"price":3}';
    const service = await llmServiceWith(PROVIDERS, openaiConfig, { maxRetryWaitSeconds: 2 });
    openai.script(openaiRateLimited(1));
    const started = Date.now();
    expect((await service.generate(ask)).data).toEqual({ price: 3 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(openai.requests).toHaveLength(2);
    openai.script(openaiRateLimited(30));
    const error = await rejection(service.generate(ask));
    expect([error.status, error.retryAfterSeconds]).toEqual([503, 30]);
    expect(error.message).toStartWith('llm.openai: rate limited (HTTP 429: Rate limit reached');
    openai.script(openaiRateLimited(1), openaiRateLimited(1));
    expect((await rejection(service.generate(ask))).status).toBe(503);
  });

  test('a provider that does not answer in llm.timeoutMs is a 504; a provider error a 502 naming it', async () => {
    const service = await llmServiceWith(PROVIDERS, openaiConfig, { timeoutMs: 1000 });
    openai.script(() => new Promise<Response>(() => {}));
    const started = Date.now();
    const slow = await rejection(service.generate(ask));
    expect([slow.status, slow.message]).toEqual([504, 'llm.openai did not answer within 1000 ms (llm.timeoutMs)']);
    expect(Date.now() - started).toBeLessThan(3000);
    openai.script(() => openaiError(500, 'The server had an error while processing your request.', 'server_error'));
    const broken = await rejection(service.generate(ask));
    expect([broken.status, broken.message]).toEqual([502, 'llm.openai: HTTP 500: The server had an error while processing your request.']);
  });

  test("the caller going away ends the call with the caller's reason", async () => {
    const service = await llmServiceWith(PROVIDERS, openaiConfig);
    openai.script(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client went away')), 200);
    expect((await rejection(service.generate({ ...ask, signal: controller.signal }))).message).toBe('client went away');
  });

  test('the provider: llm.provider, else the first enabled; none is a 503 saying what to set', async () => {
    const both = { ...openaiConfig, ollama: { model: 'qwen2.5:0.5b', baseUrl: ollama.url } };
    expect((await llmServiceWith(PROVIDERS, both)).provider()?.id).toBe('llm.openai');
    const chosen = await llmServiceWith(PROVIDERS, both, { provider: 'ollama' });
    expect((await chosen.generate(ask)).provider).toBe('llm.ollama');
    const none = await llmServiceWith(PROVIDERS, {});
    expect(none.provider()).toBeNull();
    const error = await rejection(none.generate(ask));
    expect([error.status, error.message]).toEqual([
      503,
      'No language model is configured: set plugins.llm.openai.model, or plugins.llm.ollama.model, or plugins.llm.gemini.apiKey, or plugins.llm.llama-cpp.modelPath',
    ]);
    await expect(llmServiceWith(PROVIDERS, {}, { provider: 'claude' })).rejects.toThrow(
      'Invalid configuration at llm.provider: unknown language-model provider "claude" (installed: openai, ollama, gemini, llama-cpp)',
    );
    await expect(llmServiceWith(PROVIDERS, {}, { provider: 'ollama' })).rejects.toThrow(
      'Invalid configuration at llm.provider: llm.ollama is not enabled (plugins.llm.ollama.model)',
    );
  });

  test('health: every provider, configured ones asked (and the answer reused), the others not configured', async () => {
    const service = await llmServiceWith(
      PROVIDERS,
      { ...openaiConfig, ollama: { model: 'llama3.2', baseUrl: ollama.url } },
      { healthCacheSeconds: 60 },
    );
    const report = await service.health();
    expect(report).toEqual({
      status: 'configured',
      provider: 'llm.openai',
      providers: [
        { id: 'llm.openai', configured: true, status: 'ok', model: 'gpt-4o-mini', endpoint: `${openai.url}/v1/chat/completions` },
        {
          id: 'llm.ollama',
          configured: true,
          status: 'model missing',
          model: 'llama3.2',
          endpoint: `${ollama.url}/api/chat`,
          runtime: { version: '0.12.6' },
          detail: 'model "llama3.2" is not pulled; run `ollama pull llama3.2`',
        },
        { id: 'llm.gemini', configured: false, status: 'not configured' },
        { id: 'llm.llama-cpp', configured: false, status: 'not configured' },
      ],
    });
    const asked = openai.requests.length;
    await service.health();
    expect(openai.requests.length).toBe(asked);
  });

  test('health does not wait past llm.healthTimeoutMs for a provider that hangs', async () => {
    const service = await llmServiceWith(PROVIDERS, openaiConfig, { healthTimeoutMs: 300 });
    openai.script(() => new Promise<Response>(() => {}));
    const started = Date.now();
    const [first] = (await service.health()).providers;
    expect(first).toEqual({
      id: 'llm.openai',
      configured: true,
      status: 'unreachable',
      detail: 'no answer within 300 ms (llm.healthTimeoutMs)',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
