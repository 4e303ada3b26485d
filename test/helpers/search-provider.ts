/**
 * Sets up a search provider plugin for a test the way the registry would (options parsed by its
 * schema, the real core HTTP client resolved from its context) with the SSRF guard on: the
 * provider's own configured origin on 127.0.0.1 is reachable only through the configured-service
 * rule, so every provider test also exercises that rule.
 */
import pino from 'pino';
import type { z } from 'zod';
import { createHttpClient } from '../../core/net/http-client.ts';
import type { PluginDefinition, SearchHandler, SearchQuery } from '../../core/plugin.ts';
import { Tokens } from '../../core/tokens.ts';
import { testConfig, testContext } from './plugin-context.ts';

export async function providerHandler<O extends z.ZodType>(plugin: PluginDefinition<'search', O>, options: z.input<O>): Promise<SearchHandler> {
  const config = testConfig({ fetch: { allowPrivateNetwork: false, timeoutMs: 5000 } });
  const http = createHttpClient(config.fetch, pino({ level: 'silent' }));
  return plugin.setup(plugin.options!.parse(options), testContext([[Tokens.Http, http]], config));
}

export const searchQuery = (query: string, extra: Partial<SearchQuery> = {}): SearchQuery =>
  ({ query, limit: 5, signal: new AbortController().signal, ...extra });

/** `count` results on example sites, for providers that only need some results. */
export const someResults = (count: number, prefix = 'https://example.com/page') =>
  Array.from({ length: count }, (_, i) => ({ url: `${prefix}${i + 1}`, title: `Page ${i + 1}`, snippet: `About page ${i + 1}` }));

/** The message of what `promise` rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ message: string; retryAfterSeconds?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as { message: string; retryAfterSeconds?: number };
  }
  throw new Error('expected the search to fail');
}
