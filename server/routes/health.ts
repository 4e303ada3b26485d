/**
 * GET /health: liveness plus what an operator wants at a glance (database, plugins, content
 * workers, LLM runtime). Public. It never waits on a worker: the pool's stats are counters.
 */
import { CoreTokens, Tokens } from '../../core/services.ts';
import { jsonBody } from '../openapi-shapes.ts';
import { defineRoutes } from '../route.ts';

export const healthModule = defineRoutes({
  name: 'health',
  needs: { storage: Tokens.Storage, workers: CoreTokens.Workers },
  routes: ({ storage, workers }, { registry, version }) => [{
    method: 'GET',
    path: '/health',
    async handle() {
      const databaseOk = await storage.ping().catch(() => false);
      const llmProviders = registry.active('llm');
      return Response.json(
        {
          status: databaseOk ? 'ok' : 'degraded',
          version,
          database: { dialect: storage.dialect, status: databaseOk ? 'ok' : 'unreachable' },
          plugins: registry.counts(),
          workers: workers.stats(),
          llm: llmProviders.length ? { status: 'configured', providers: llmProviders.map((p) => p.id) } : { status: 'not configured' },
        },
        { status: databaseOk ? 200 : 503 },
      );
    },
  }],
  openapi: () => ({
    paths: {
      '/health': {
        get: { summary: 'Health check', security: [], responses: { 200: jsonBody({ type: 'object' }, 'status, version, database, plugin counts, content-worker pool statistics, language-model runtime status'), 503: jsonBody({ type: 'object' }, 'The database does not answer') } },
      },
    },
  }),
});
