/** GET /health: liveness plus what an operator wants at a glance (database, plugins, LLM runtime). Public. */
import { Tokens } from '../../core/services.ts';
import { jsonBody } from '../openapi-shapes.ts';
import { defineRoutes } from '../route.ts';

export const healthModule = defineRoutes({
  name: 'health',
  needs: { storage: Tokens.Storage },
  routes: ({ storage }, { registry, version }) => [{
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
          llm: llmProviders.length ? { status: 'configured', providers: llmProviders.map((p) => p.id) } : { status: 'not configured' },
        },
        { status: databaseOk ? 200 : 503 },
      );
    },
  }],
  openapi: () => ({
    paths: {
      '/health': {
        get: { summary: 'Health check', security: [], responses: { 200: jsonBody({ type: 'object' }, 'status, version, database, plugin counts, language-model runtime status'), 503: jsonBody({ type: 'object' }, 'The database does not answer') } },
      },
    },
  }),
});
