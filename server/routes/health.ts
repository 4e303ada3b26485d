/**
 * GET /health: liveness plus what an operator wants at a glance (database, plugins, content
 * workers, LLM runtime, each search provider: configured or not, its state and last error). Public.
 * It never waits on a worker or a provider: the pool's stats and the providers' states are counters.
 */
import type { SearchHandler } from '../../core/plugin.ts';
import { CoreTokens, Tokens } from '../../core/services.ts';
import { jsonBody } from '../openapi-shapes.ts';
import { defineRoutes } from '../route.ts';

/** A search provider's status in /health's snake_case; only what is known is shown. */
function searchStatus(handler: SearchHandler) {
  const { state, endpoint, lastError, lastSuccessAt, retryAt } = handler.status();
  return {
    state,
    endpoint,
    ...(lastError ? { last_error: lastError } : {}),
    ...(lastSuccessAt ? { last_success_at: lastSuccessAt } : {}),
    ...(retryAt ? { retry_at: retryAt } : {}),
  };
}

export const healthModule = defineRoutes({
  name: 'health',
  needs: { storage: Tokens.Storage, workers: CoreTokens.Workers },
  routes: ({ storage, workers }, { registry, version }) => [{
    method: 'GET',
    path: '/health',
    async handle() {
      const databaseOk = await storage.ping().catch(() => false);
      const llmProviders = registry.active('llm');
      const searchProviders = registry.all().filter((p) => p.definition.kind === 'search');
      return Response.json(
        {
          status: databaseOk ? 'ok' : 'degraded',
          version,
          database: { dialect: storage.dialect, status: databaseOk ? 'ok' : 'unreachable' },
          plugins: registry.counts(),
          workers: workers.stats(),
          llm: llmProviders.length ? { status: 'configured', providers: llmProviders.map((p) => p.id) } : { status: 'not configured' },
          search: {
            status: searchProviders.some((p) => p.enabled) ? 'configured' : 'not configured',
            providers: searchProviders.map((p) => (p.enabled && p.handler ? { id: p.id, configured: true, ...searchStatus(p.handler as SearchHandler) } : { id: p.id, configured: false })),
          },
        },
        { status: databaseOk ? 200 : 503 },
      );
    },
  }],
  openapi: () => ({
    paths: {
      '/health': {
        get: { summary: 'Health check', security: [], responses: { 200: jsonBody({ type: 'object' }, 'status, version, database, plugin counts, content-worker pool statistics, language-model runtime status, and `search`: `status` (configured or not) and `providers`, each `{id, configured}` plus, when configured, `state` (unused, ok, failing, rate_limited), `endpoint`, `last_error` {message, at}, `last_success_at`, `retry_at`'), 503: jsonBody({ type: 'object' }, 'The database does not answer') } },
      },
    },
  }),
});
