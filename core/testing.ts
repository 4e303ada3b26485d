/**
 * The test kit: what a plugin's colocated test needs besides the plugin kit, so plugin tests
 * import core through these two modules only. A plugin context (quiet logger, test config, core
 * services of the test's choosing), jobs and documents for a request, a fixture web site, the
 * set-up of provider plugins with the real HTTP client and its SSRF guard on, and a fixture-folder
 * runner whose expectations `UPDATE=1` rewrites. test/helpers builds on it for the rest of the suite.
 */
import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { container as rootContainer, type InjectionToken } from 'tsyringe';
import type { z } from 'zod';
import { loadConfig } from './config.ts';
import { PageDocument } from './document.ts';
import { TrawlError } from './errors.ts';
import { builtinFeatures } from './features/index.ts';
import { LlmService } from './llm/service.ts';
import { createJob, type Job } from './job.ts';
import { composeRequestSchema } from './model/compose.ts';
import type { ScrapeRequest } from './model/request.ts';
import { createHttpClient } from './net/http-client.ts';
import { oncePer } from './once.ts';
import type {
  AnyPlugin,
  FieldNamer,
  HandlersByKind,
  LlmHandler,
  LlmRequest,
  PluginContext,
  PluginDefinition,
  SearchQuery,
} from './plugin.ts';
import { PluginRegistry } from './registry.ts';
import { Tokens } from './tokens.ts';

export * from './browser/testing.ts';
export { createJob } from './job.ts';
export type { AddressPolicy } from './net/address-guard.ts';
export { forbiddenAddressReason } from './net/ssrf.ts';

const quiet = () => pino({ level: 'silent' });

/** The configuration with every built-in feature, no config file or environment, a silent log and private addresses reachable. */
export function testConfig(overrides: Record<string, unknown> = {}) {
  return loadConfig({
    plugins: [],
    features: builtinFeatures,
    env: {},
    overrides: { log: { level: 'silent' }, fetch: { allowPrivateNetwork: true }, ...overrides },
  });
}

/** The context a plugin's `setup` receives; `services` are the core services it may resolve (token, instance). */
export function testContext(services: Array<[InjectionToken<unknown>, unknown]> = [], config = testConfig()): PluginContext {
  const scope = rootContainer.createChildContainer();
  for (const [token, value] of services) scope.registerInstance(token, value);
  return { logger: quiet(), config, resolve: (token) => scope.resolve(token) };
}

/** A plugin context with the real core HTTP client, built from `config.fetch` as a server builds it (its SSRF guard and timeouts). */
export function testHttpContext(config = testConfig()): PluginContext {
  return testContext([[Tokens.Http, createHttpClient(config.fetch, quiet())]], config);
}

// Built once per plugin list, not per call: composing a request schema costs far more than parsing with it.
const requestSchemaOf = oncePer((plugins: readonly AnyPlugin[]) => composeRequestSchema(plugins).schema);
const coreRequestSchema = composeRequestSchema([]).schema.loose();

/**
 * An internal (camelCase) request with every default filled in, as a wire parser would hand it over.
 * With `plugins` the request is checked as a server with those plugins checks it (unknown fields
 * refused, plugin fields defaulted); without, the core fields are checked and defaulted and any
 * other field passes through as given, so a plugin test names the plugin fields it reads.
 */
export function testRequest(request: Record<string, unknown>, plugins?: readonly AnyPlugin[]): ScrapeRequest {
  return (plugins ? requestSchemaOf(plugins) : coreRequestSchema).parse(request) as unknown as ScrapeRequest;
}

export function testJob(request: Record<string, unknown>, plugins?: readonly AnyPlugin[]): Job {
  return createJob(testRequest(request, plugins), 'default', new AbortController().signal);
}

export function testDocument(request: Record<string, unknown>, plugins?: readonly AnyPlugin[]): PageDocument {
  return new PageDocument(testJob(request, plugins));
}

/** Names request fields in snake_case, as a wire format does, for the messages of a handler's `validate`. */
export const snakeFieldName: FieldNamer = (path) => path.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Awaits a promise that must reject with a TrawlError and returns that error. */
export async function failure(promise: Promise<unknown>): Promise<TrawlError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TrawlError);
    return err as TrawlError;
  }
  throw new Error('expected the promise to reject');
}

/** What `promise` rejects with, whatever it is (fails the test when it resolves). */
export async function rejection(
  promise: Promise<unknown>,
): Promise<{ message: string; code?: string; status?: number; retryAfterSeconds?: number }> {
  try {
    await promise;
  } catch (err) {
    return err as { message: string; code?: string; status?: number; retryAfterSeconds?: number };
  }
  throw new Error('expected the call to fail');
}

/**
 * Sets up a provider plugin (search, language model, social source) the way the registry would:
 * options parsed by its schema, the real core HTTP client resolved from its context, with the SSRF
 * guard on, so the provider's configured origin on 127.0.0.1 is reachable only through the
 * configured-service rule.
 */
export async function providerHandler<K extends 'search' | 'llm' | 'social', O extends z.ZodType>(
  plugin: PluginDefinition<K, O>,
  options: z.input<O>,
): Promise<HandlersByKind[K]> {
  const config = testConfig({ fetch: { allowPrivateNetwork: false, timeoutMs: 5000 } });
  return plugin.setup(plugin.options!.parse(options), testHttpContext(config));
}

/** A language-model provider set up as `providerHandler` does. */
export const llmHandler = <O extends z.ZodType>(plugin: PluginDefinition<'llm', O>, options: z.input<O>): Promise<LlmHandler> =>
  providerHandler(plugin, options);

export const searchQuery = (query: string, extra: Partial<SearchQuery> = {}): SearchQuery => ({
  query,
  limit: 5,
  signal: new AbortController().signal,
  ...extra,
});

/** `count` results on example sites, for providers that only need some results. */
export const someResults = (count: number, prefix = 'https://example.com/page') =>
  Array.from({ length: count }, (_, i) => ({ url: `${prefix}${i + 1}`, title: `Page ${i + 1}`, snippet: `About page ${i + 1}` }));

export const llmRequest = (content: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content },
  ],
  maxOutputTokens: 256,
  signal: new AbortController().signal,
  ...extra,
});

/**
 * The LLM service over a registry of `plugins` set up with `pluginConfig` (`{openai: {model, …}}`)
 * and `[llm]` settings: the same objects a server builds, the HTTP client with the SSRF guard on.
 */
export async function llmServiceWith(
  plugins: readonly AnyPlugin[],
  pluginConfig: Record<string, unknown>,
  llm: Record<string, unknown> = {},
): Promise<LlmService> {
  const config = loadConfig({
    plugins,
    features: [],
    env: {},
    defaultFile: null,
    overrides: { log: { level: 'silent' }, fetch: { allowPrivateNetwork: false, timeoutMs: 5000 }, llm, plugins: { llm: pluginConfig } },
  });
  const registry = new PluginRegistry(plugins, config);
  // One context for every plugin, so they share one HTTP client as they do in a server.
  const context = testHttpContext(config);
  await registry.setup(() => context);
  return new LlmService({ registry, settings: config.llm, logger: quiet() });
}

/**
 * Compares `actual` with the expectation file at `path` (its one trailing newline aside); with
 * `UPDATE=1` in the environment it writes `actual` there first, so a changed output is reviewed as a diff.
 */
export function expectFixture(path: string, actual: string): void {
  if (process.env.UPDATE === '1') writeFileSync(path, `${actual}\n`);
  expect(actual).toBe(readFileSync(path, 'utf8').replace(/\n$/, ''));
}

export interface FixtureCase {
  /** The case's folder name. */
  name: string;
  dir: string;
  /** The input file's text. */
  input: string;
  /** Checks an output against the case's expectation file (see `expectFixture`). */
  expect(actual: string): void;
}

/**
 * The cases of a fixture folder: each subfolder of `dir` holding an `input` file is one case, its
 * expected output beside it in `expected` (written by `UPDATE=1` when missing).
 */
export function fixtureCases(dir: string, files: { input: string; expected: string }): FixtureCase[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, files.input)))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      dir: join(dir, name),
      input: readFileSync(join(dir, name, files.input), 'utf8'),
      expect: (actual: string) => expectFixture(join(dir, name, files.expected), actual),
    }));
}

/** A test per case of a fixture folder: `run` turns the input into the output compared with the expectation. */
export function testFixtures(
  dir: string,
  files: { input: string; expected: string },
  run: (input: string, fixture: FixtureCase) => string | Promise<string>,
): void {
  for (const fixture of fixtureCases(dir, files)) test(fixture.name, async () => fixture.expect(await run(fixture.input, fixture)));
}

export type Route =
  | string
  | Uint8Array
  | { body?: string | Uint8Array; status?: number; headers?: Record<string, string>; delayMs?: number }
  | ((req: Request, server: FixtureSite) => Response | Promise<Response>);

export interface FixtureSite {
  url: string;
  port: number;
  /** Absolute URL of a path on this site. */
  at(path: string): string;
  /** Paths requested so far, in order (with query string). */
  hits: string[];
  stop(): Promise<void>;
}

/** Copies bytes into a plain ArrayBuffer-backed view, the only byte body type Response accepts. */
const asBody = (body: string | Uint8Array) => (typeof body === 'string' ? body : new Uint8Array(body));

/**
 * A tiny web site on 127.0.0.1: routes map a path to a body (string, bytes or a handler). Every
 * test that needs "the internet" talks to one of these instead.
 */
export function startFixtureSite(routes: Record<string, Route>): FixtureSite {
  const hits: string[] = [];
  const site = {} as FixtureSite;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 60,
    async fetch(req) {
      const url = new URL(req.url);
      hits.push(url.pathname + url.search);
      const route = routes[url.pathname + url.search] ?? routes[url.pathname];
      if (route === undefined) return new Response('not found', { status: 404 });
      if (typeof route === 'function') return route(req, site);
      if (typeof route === 'string' || route instanceof Uint8Array) {
        return new Response(asBody(route), { headers: { 'content-type': 'text/html; charset=utf-8' } });
      }
      if (route.delayMs) await Bun.sleep(route.delayMs);
      return new Response(asBody(route.body ?? ''), {
        status: route.status ?? 200,
        headers: { 'content-type': 'text/html; charset=utf-8', ...route.headers },
      });
    },
  });
  Object.assign(site, {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port,
    at: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    hits,
    stop: async () => {
      await server.stop(true);
    },
  });
  return site;
}
