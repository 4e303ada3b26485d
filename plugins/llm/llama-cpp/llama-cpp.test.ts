// llm.llama-cpp for real: a tiny llama model (random weights, real tensor shapes, a byte-fallback
// vocabulary and a ChatML template) is written as a GGUF file at test time and run in this process
// by node-llama-cpp's CPU build — load, tokenizer, chat template, JSON-schema grammar — and through
// the LLM service, whose validation refuses what the grammar cannot promise (a pattern) and whose
// retry and 422 follow. A random model writes nonsense, but under the grammar it is JSON.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedSchema } from '../../../core/kit.ts';
import type { LlmHandler, LlmService } from '../../../core/kit.ts';
import { llmHandler, llmRequest, llmServiceWith, rejection } from '../../../core/testing.ts';
import { writeTinyLlama } from './tiny-gguf.ts';
import { llamaCppLlm } from './llama-cpp.ts';

const dir = mkdtempSync(join(tmpdir(), 'trawl-gguf-'));
const modelPath = join(dir, 'tiny.gguf');
// One thread: on a busy machine llama.cpp's spinning thread pool is far slower with two.
const options = { modelPath, threads: 1, contextSize: 1024 };
let handler: LlmHandler;
let service: LlmService;

beforeAll(async () => {
  writeTinyLlama(modelPath, { seed: 7 });
  handler = await llmHandler(llamaCppLlm, options);
  service = await llmServiceWith([llamaCppLlm], { 'llama-cpp': options }, { maxRetryWaitSeconds: 0 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What a grammar fully enforces: choices, booleans, bounded lists of choices. (Free text it does
// not: byte tokens can leave invalid UTF-8 that decodes to more characters than maxLength allows.)
const enforceable = {
  type: 'object',
  properties: {
    answer: { enum: ['yes', 'no'] },
    sure: { type: 'boolean' },
    colors: { type: 'array', items: { enum: ['red', 'green', 'blue'] }, maxItems: 3 },
  },
  required: ['answer', 'sure', 'colors'],
};

describe('llm.llama-cpp', () => {
  test('a path with no model file stops the boot, naming the key', async () => {
    expect(() => llmHandler(llamaCppLlm, { modelPath: join(dir, 'missing.gguf') })).toThrow(
      `Invalid configuration at plugins.llm.llama-cpp.modelPath: no model file at ${join(dir, 'missing.gguf')}`,
    );
  });

  test('loads the GGUF file in process and reports it', async () => {
    // The first request waits for the load that setup started.
    await handler.complete(llmRequest('Hello', { maxOutputTokens: 4 }));
    expect(await handler.status(AbortSignal.timeout(1000))).toMatchObject({
      status: 'ok',
      model: 'tiny.gguf',
      runtime: { state: 'loaded', contextSize: 1024, threads: 1, loadMs: expect.any(Number) },
    });
    expect(handler.contextTokens).toBe(1024);
    // The model's own tokenizer: one token a character here (`▁` and printable ASCII), more for other bytes.
    expect(handler.countTokens!('abc')).toBe(4);
    expect(handler.countTokens!('é')).toBeGreaterThanOrEqual(2);
  });

  test('generation under a JSON-schema grammar is JSON of that shape', async () => {
    const answer = await handler.complete(llmRequest('Is the sky blue?', { schema: enforceable, maxOutputTokens: 80 }));
    expect(answer.truncated).toBe(false);
    const data = JSON.parse(answer.text);
    expect(checkedSchema(enforceable, 10_000).validate(data)).toBeNull();
    expect(answer.usage.inputTokens).toBeGreaterThan(10);
    expect(answer.usage.outputTokens).toBeGreaterThan(5);
    expect(answer.model).toBe('tiny.gguf');
  });

  test('through the service: an answer the grammar enforces is validated and returned', async () => {
    const generated = await service.generate({
      messages: [{ role: 'user', content: 'Is the sky blue?' }],
      schema: checkedSchema(enforceable, 10_000),
    });
    expect(checkedSchema(enforceable, 10_000).validate(generated.data)).toBeNull();
    expect(generated).toMatchObject({ provider: 'llm.llama-cpp', model: 'tiny.gguf' });
  });

  test('through the service: what the grammar cannot enforce is refused, retried once, then a 422', async () => {
    // The grammar has no patterns: the model writes four characters, the schema wants four Qs.
    const strict = checkedSchema(
      { type: 'object', properties: { code: { type: 'string', maxLength: 4, pattern: '^Q{4}$' } }, required: ['code'] },
      10_000,
    );
    const calls = { count: 0 };
    const handlerOf = (service as unknown as { provider(): { handler: LlmHandler } }).provider().handler;
    const complete = handlerOf.complete.bind(handlerOf);
    handlerOf.complete = (request) => {
      calls.count++;
      return complete(request);
    };
    try {
      const error = await rejection(service.generate({ messages: [{ role: 'user', content: 'Code?' }], schema: strict }));
      expect(error.status).toBe(422);
      expect(error.message).toMatch(
        /^The model's answer does not match the schema: at \/code: must match pattern "\^Q\{4\}\$" \(llm\.llama-cpp, tiny\.gguf; after one retry\)$/,
      );
      expect(calls.count).toBe(2);
    } finally {
      handlerOf.complete = complete;
    }
  });

  test('an answer cut off at the token limit is retried, then a 422 that says so', async () => {
    const error = await rejection(
      service.generate({ messages: [{ role: 'user', content: 'x' }], schema: checkedSchema(enforceable, 10_000), maxOutputTokens: 3 }),
    );
    expect([error.status, error.message]).toEqual([
      422,
      "The model's answer was cut off at the token limit (3 tokens) (llm.llama-cpp, tiny.gguf; after one retry)",
    ]);
  });

  test('an aborted call stops', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client gone'));
    await expect(handler.complete(llmRequest('x', { signal: controller.signal }))).rejects.toThrow();
  });

  test('a model file that goes away is reported as missing; a file that is no model fails to load', async () => {
    renameSync(modelPath, `${modelPath}.moved`);
    expect(await handler.status(AbortSignal.timeout(1000))).toMatchObject({ status: 'model missing', detail: `no file at ${modelPath}` });
    renameSync(`${modelPath}.moved`, modelPath);
    const junk = join(dir, 'junk.gguf');
    await Bun.write(junk, 'this is not a model');
    const broken = await llmHandler(llamaCppLlm, { modelPath: junk, threads: 1 });
    const error = await rejection(broken.complete(llmRequest('x')));
    expect([error.status, error.message]).toEqual([503, expect.stringMatching(/^the model junk\.gguf could not be loaded: /)]);
    expect(await broken.status(AbortSignal.timeout(1000))).toMatchObject({ status: 'error', runtime: { state: 'failed' } });
  });
});
