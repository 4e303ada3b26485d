/**
 * Sets up a language-model provider plugin for a test the way the registry would (options parsed
 * by its schema, the real core HTTP client) with the SSRF guard on, so the provider's configured
 * origin on 127.0.0.1 is reachable only through the configured-service rule; and an LlmService
 * over such a handler, for tests of the service's retries and error mapping through real providers.
 */
import pino from 'pino';
import type { z } from 'zod';
import { loadConfig } from '../../core/config.ts';
import { LlmService } from '../../core/llm/service.ts';
import { createHttpClient } from '../../core/net/http-client.ts';
import type { AnyPlugin, LlmHandler, LlmRequest, PluginDefinition } from '../../core/plugin.ts';
import { PluginRegistry } from '../../core/registry.ts';
import { Tokens } from '../../core/tokens.ts';
import { testConfig, testContext } from './plugin-context.ts';

export async function llmHandler<O extends z.ZodType>(plugin: PluginDefinition<'llm', O>, options: z.input<O>): Promise<LlmHandler> {
  const config = testConfig({ fetch: { allowPrivateNetwork: false, timeoutMs: 5000 } });
  const http = createHttpClient(config.fetch, pino({ level: 'silent' }));
  return plugin.setup(plugin.options!.parse(options), testContext([[Tokens.Http, http]], config));
}

export const llmRequest = (content: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content }],
  maxOutputTokens: 256,
  signal: new AbortController().signal,
  ...extra,
});

/** What `promise` rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<{ message: string; code?: string; status?: number; retryAfterSeconds?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as { message: string; code?: string; status?: number; retryAfterSeconds?: number };
  }
  throw new Error('expected the call to fail');
}

/**
 * The LLM service over a registry of `plugins` set up with `pluginConfig` (`{openai: {model, …}}`)
 * and `[llm]` settings: the same objects a server builds, the HTTP client with the SSRF guard on.
 */
export async function llmServiceWith(plugins: readonly AnyPlugin[], pluginConfig: Record<string, unknown>, llm: Record<string, unknown> = {}): Promise<LlmService> {
  const config = loadConfig({ plugins, features: [], env: {}, defaultFile: null, overrides: { log: { level: 'silent' }, fetch: { allowPrivateNetwork: false, timeoutMs: 5000 }, llm, plugins: { llm: pluginConfig } } });
  const registry = new PluginRegistry(plugins, config);
  const http = createHttpClient(config.fetch, pino({ level: 'silent' }));
  await registry.setup(() => testContext([[Tokens.Http, http]], config));
  return new LlmService({ registry, settings: config.llm, logger: pino({ level: 'silent' }) });
}
