/**
 * GET /health: liveness plus what an operator wants at a glance, with a verdict (core/health.ts:
 * ok / degraded / down, HTTP 200 / 200 / 503): database, browser, job queue, plugins, content
 * workers, each language-model provider — reachable, model there, a local runtime's load state —
 * and each search provider: configured or not, its state and last error). Public. It never waits
 * on a worker, and on a language-model provider at most llm.healthTimeoutMs (answers cached for
 * llm.healthCacheSeconds); the search providers' states are counters.
 */
import { LlmTokens } from '../../core/llm/tokens.ts';
import type { SearchHandler } from '../../core/plugin.ts';
import { checkHealth } from '../../core/health.ts';
import { CoreTokens, Tokens } from '../../core/tokens.ts';
import { defineRoutes } from '../route.ts';
import { renameKeys, toV1Name } from '../wire/v1/names.ts';
import { healthOpenApi } from '../wire/v1/health.docs.ts';

const BROWSER_FETCHER = 'fetcher.browser';

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

/** Providers that are configured and failing degrade the service; the others are shown only. */
function providerReasons(
  llm: Array<{ id: string; configured: boolean; status: string; detail?: string }>,
  search: Array<{ id: string; configured: boolean; state?: string }>,
): string[] {
  return [
    ...llm
      .filter((p) => p.configured && ['unreachable', 'model missing', 'error'].includes(p.status))
      .map((p) => `language model ${p.id}: ${p.status}${p.detail ? ` (${p.detail})` : ''}`),
    ...search.filter((p) => p.configured && p.state === 'failing').map((p) => `search provider ${p.id}: failing`),
  ];
}

const withoutStats = <T extends { stats: unknown }>({ stats: _stats, ...rest }: T) => rest;
const HTTP_STATUS = { ok: 200, degraded: 200, down: 503 } as const;

export const healthModule = defineRoutes({
  name: 'health',
  needs: { storage: Tokens.Storage, workers: CoreTokens.Workers, llm: LlmTokens.Service, jobs: Tokens.Jobs, browser: Tokens.Browser },
  routes: ({ storage, workers, llm, jobs, browser }, { registry, version, config }) => [
    {
      method: 'GET',
      path: '/health',
      async handle() {
        const browserEnabled = registry.all().some((p) => p.id === BROWSER_FETCHER && p.enabled);
        const searchProviders = registry.all().filter((p) => p.definition.kind === 'search');
        const search = searchProviders.map((p) =>
          p.enabled && p.handler
            ? { id: p.id, configured: true, ...searchStatus(p.handler as SearchHandler) }
            : { id: p.id, configured: false },
        );
        const models = await llm.health();
        const report = await checkHealth(
          { config, storage, jobs, browser, browserEnabled, workers: () => workers.stats() },
          providerReasons(models.providers, search),
        );
        return Response.json(
          {
            status: report.status,
            ...(report.reasons.length ? { reason: report.reasons.join('; ') } : {}),
            version,
            database: report.database,
            browser: renameKeys({ ...withoutStats(report.browser), ...report.browser.stats }, toV1Name),
            queue: renameKeys({ ...report.queue, kinds: report.queue.kinds.map((kind) => renameKeys(kind, toV1Name)) }, toV1Name),
            plugins: registry.counts(),
            workers: report.workers,
            llm: {
              ...models,
              providers: models.providers.map(({ runtime, ...p }) => ({
                ...p,
                ...(runtime ? { runtime: renameKeys(runtime, toV1Name) } : {}),
              })),
            },
            search: { status: searchProviders.some((p) => p.enabled) ? 'configured' : 'not configured', providers: search },
          },
          { status: HTTP_STATUS[report.status] },
        );
      },
    },
  ],
  openapi: () => healthOpenApi,
});
