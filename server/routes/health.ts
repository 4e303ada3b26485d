/**
 * GET /health: liveness plus what an operator wants at a glance (database, plugins, content
 * workers, each language-model provider — reachable, model there, a local runtime's load state —
 * and each search provider: configured or not, its state and last error). Public. It never waits
 * on a worker, and on a language-model provider at most llm.healthTimeoutMs (answers cached for
 * llm.healthCacheSeconds); the search providers' states are counters.
 */
import { LlmTokens } from '../../core/features/llm/tokens.ts';
import type { SearchHandler } from '../../core/plugin.ts';
import { CoreTokens, Tokens } from '../../core/services.ts';
import { jsonBody } from '../openapi-shapes.ts';
import { defineRoutes } from '../route.ts';
import { renameKeys, toV1Name } from '../wire/v1/names.ts';

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
  needs: { storage: Tokens.Storage, workers: CoreTokens.Workers, llm: LlmTokens.Service },
  routes: ({ storage, workers, llm }, { registry, version }) => [{
    method: 'GET',
    path: '/health',
    async handle() {
      const [databaseOk, models] = await Promise.all([storage.ping().catch(() => false), llm.health()]);
      const searchProviders = registry.all().filter((p) => p.definition.kind === 'search');
      return Response.json(
        {
          status: databaseOk ? 'ok' : 'degraded',
          version,
          database: { dialect: storage.dialect, status: databaseOk ? 'ok' : 'unreachable' },
          plugins: registry.counts(),
          workers: workers.stats(),
          llm: { ...models, providers: models.providers.map(({ runtime, ...p }) => ({ ...p, ...(runtime ? { runtime: renameKeys(runtime, toV1Name) } : {}) })) },
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
        get: { summary: 'Health check', security: [], responses: { 200: jsonBody({ type: 'object' }, 'status, version, database, plugin counts, content-worker pool statistics, `llm`: `status` (configured or not), `provider` (the one that answers) and `providers`, each `{id, configured, status}` — status `ok`, `unreachable`, `model missing`, `loading`, `error` or `not configured` — plus, when configured, `model`, `endpoint`, `detail` and `runtime` (Ollama\'s version; the local model\'s load state `not loaded`, `loading`, `loaded` or `failed`, load time, context size, threads), and `search`: `status` (configured or not) and `providers`, each `{id, configured}` plus, when configured, `state` (unused, ok, failing, rate_limited), `endpoint`, `last_error` {message, at}, `last_success_at`, `retry_at`'), 503: jsonBody({ type: 'object' }, 'The database does not answer') } },
      },
    },
  }),
});
