/** GET /health: liveness plus what an operator wants at a glance (database, plugins, LLM runtime). */
import type { Trawl } from '../../core/container.ts';

export async function healthRoute(trawl: Trawl) {
  const databaseOk = await trawl.storage.ping().catch(() => false);
  const llmProviders = trawl.registry.active('llm');
  return Response.json(
    {
      status: databaseOk ? 'ok' : 'degraded',
      version: trawl.version,
      database: { dialect: trawl.storage.dialect, status: databaseOk ? 'ok' : 'unreachable' },
      plugins: trawl.registry.counts(),
      llm: llmProviders.length ? { status: 'configured', providers: llmProviders.map((p) => p.id) } : { status: 'not configured' },
    },
    { status: databaseOk ? 200 : 503 },
  );
}
