/**
 * GET /metrics: the process's Prometheus metrics (core/metrics.ts) in the text format. Who may read
 * them: the metrics token (`metrics.token`, a bearer that opens nothing else), or — self-hosted —
 * whoever may call the API (its key; anyone when none is set); in cloud mode workspace keys may
 * not (the numbers are the whole service's), the admin key may.
 */
import type { TrawlConfig } from '../core/config-schema.ts';
import { TrawlError } from '../core/errors.ts';
import type { Metrics } from '../core/metrics.ts';
import { secretMatcher, type Authenticator } from './auth.ts';
import { errorBody } from './openapi-shapes.ts';

/** Throws 401 unless the request may read the metrics. */
export function createMetricsGuard(config: Readonly<TrawlConfig>, auth: Authenticator): (authorization: string | null) => Promise<void> {
  const token = secretMatcher(config.metrics.token);
  const admin = secretMatcher(config.adminKey);
  return async (authorization) => {
    if (token(authorization) || admin(authorization)) return;
    if (config.mode !== 'cloud') {
      await auth.authenticate(authorization);
      return;
    }
    throw new TrawlError('unauthorized', 'Invalid or missing metrics token');
  };
}

export const metricsResponse = async (metrics: Metrics) =>
  new Response(await metrics.text(), { headers: { 'content-type': metrics.contentType } });

/** /metrics in the OpenAPI document (it is no JSON route module), when it is served. */
export const metricsOpenApi = (config: Readonly<TrawlConfig>) => ({
  paths: config.metrics.enabled
    ? {
        '/metrics': {
          get: {
            summary: 'Prometheus metrics',
            description:
              'The text exposition format: HTTP requests and latency by route template and status, pipeline stage and plugin timings, fetches by outcome and ' +
              'reason (`ssrf_refused` for the address guard), jobs by kind and outcome, queue depth and lag per job kind, workers alive, browser pool, content ' +
              "workers, crawl pages, webhook deliveries, MCP tool calls, credits charged and refunded (cloud); and the process's own (`process_*`, `nodejs_*`: " +
              'CPU, memory, heap, event-loop lag). Bearer: `metrics.token`, or an API key ' +
              '(self-hosted) / the admin key (cloud).',
            responses: {
              200: { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
              401: errorBody('Invalid or missing API key or metrics token'),
            },
          },
        },
      }
    : {},
});
