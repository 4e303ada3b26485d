/**
 * Builds a PluginContext and a Job for plugin unit tests, so a plugin's `setup` and handlers can be
 * exercised without booting the whole service.
 */
import pino from 'pino';
import { container as rootContainer, type InjectionToken } from 'tsyringe';
import { loadConfig } from '../../core/config.ts';
import { builtinFeatures } from '../../core/features/index.ts';
import { createJob, type Job } from '../../core/job.ts';
import { composeRequestSchema } from '../../core/model/compose.ts';
import type { ScrapeRequest } from '../../core/model/request.ts';
import { builtinPlugins } from '../../plugins/index.ts';
import { PageDocument } from '../../core/document.ts';
import type { PluginContext } from '../../core/plugin.ts';

export function testConfig(overrides: Record<string, unknown> = {}) {
  return loadConfig({ plugins: [], features: builtinFeatures, env: {}, overrides: { log: { level: 'silent' }, fetch: { allowPrivateNetwork: true }, ...overrides } });
}

export function testContext(services: Array<[InjectionToken<unknown>, unknown]> = [], config = testConfig()): PluginContext {
  const scope = rootContainer.createChildContainer();
  for (const [token, value] of services) scope.registerInstance(token, value);
  return { logger: pino({ level: 'silent' }), config, resolve: (token) => scope.resolve(token) };
}

const requestSchema = composeRequestSchema(builtinPlugins);

/** An internal (camelCase) request with every default filled in, as a wire parser would hand it over. */
export function testRequest(request: Record<string, unknown>): ScrapeRequest {
  return requestSchema.schema.parse(request) as unknown as ScrapeRequest;
}

export function testJob(request: Record<string, unknown>): Job {
  return createJob(testRequest(request), 'default', new AbortController().signal);
}

export function testDocument(request: Record<string, unknown>): PageDocument {
  return new PageDocument(testJob(request));
}
