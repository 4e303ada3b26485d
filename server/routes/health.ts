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
import { CoreTokens, Tokens } from '../../core/services.ts';
import { jsonBody } from '../openapi-shapes.ts';
import { defineRoutes } from '../route.ts';
import { renameKeys, toV1Name } from '../wire/v1/names.ts';

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
function providerReasons(llm: Array<{ id: string; configured: boolean; status: string; detail?: string }>, search: Array<{ id: string; configured: boolean; state?: string }>): string[] {
  return [
    ...llm.filter((p) => p.configured && ['unreachable', 'model missing', 'error'].includes(p.status)).map((p) => `language model ${p.id}: ${p.status}${p.detail ? ` (${p.detail})` : ''}`),
    ...search.filter((p) => p.configured && p.state === 'failing').map((p) => `search provider ${p.id}: failing`),
  ];
}

const withoutStats = <T extends { stats: unknown }>({ stats: _stats, ...rest }: T) => rest;
const HTTP_STATUS = { ok: 200, degraded: 200, down: 503 } as const;

export const healthModule = defineRoutes({
  name: 'health',
  needs: { storage: Tokens.Storage, workers: CoreTokens.Workers, llm: LlmTokens.Service, jobs: Tokens.Jobs, browser: Tokens.Browser },
  routes: ({ storage, workers, llm, jobs, browser }, { registry, version, config }) => [{
    method: 'GET',
    path: '/health',
    async handle() {
      const browserEnabled = registry.all().some((p) => p.id === BROWSER_FETCHER && p.enabled);
      const searchProviders = registry.all().filter((p) => p.definition.kind === 'search');
      const search = searchProviders.map((p) => (p.enabled && p.handler ? { id: p.id, configured: true, ...searchStatus(p.handler as SearchHandler) } : { id: p.id, configured: false }));
      const models = await llm.health();
      const report = await checkHealth({ config, storage, jobs, browser, browserEnabled, workers: () => workers.stats() }, providerReasons(models.providers, search));
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
          llm: { ...models, providers: models.providers.map(({ runtime, ...p }) => ({ ...p, ...(runtime ? { runtime: renameKeys(runtime, toV1Name) } : {}) })) },
          search: { status: searchProviders.some((p) => p.enabled) ? 'configured' : 'not configured', providers: search },
        },
        { status: HTTP_STATUS[report.status] },
      );
    },
  }],
  openapi: () => ({
    paths: {
      '/health': {
        get: {
          summary: 'Health check',
          description:
            '`status` is `down` (HTTP 503) when the database does not answer; `degraded` (HTTP 200) when Chromium is missing while the browser fetcher is enabled, ' +
            'the job queue is stalled (its oldest due job has waited past `health.queueLagSeconds`, or jobs are due and no worker process is alive), or a configured ' +
            'language-model or search provider is failing; else `ok`. `reason` names each problem, `; `-separated.',
          security: [],
          responses: {
            200: jsonBody({ type: 'object' }, '`status` (ok, degraded), `reason` (when degraded), version, `database` {dialect, status}, `browser` {enabled, available, reason, launched, pid, launches, pages_served, active_contexts, open_contexts, waiting}, `queue` {status (ok, stalled, unknown), depth, due, running, oldest_due_lag_seconds, workers_alive (processes that reported within a lease), workers_here, kinds: [{kind, queued, due, running, lag_seconds}]}, plugin counts, content-worker pool statistics, `llm`: `status` (configured or not), `provider` (the one that answers) and `providers`, each `{id, configured, status}` — status `ok`, `unreachable`, `model missing`, `loading`, `error` or `not configured` — plus, when configured, `model`, `endpoint`, `detail` and `runtime` (Ollama\'s version; the local model\'s load state `not loaded`, `loading`, `loaded` or `failed`, load time, context size, threads), and `search`: `status` (configured or not) and `providers`, each `{id, configured}` plus, when configured, `state` (unused, ok, failing, rate_limited), `endpoint`, `last_error` {message, at}, `last_success_at`, `retry_at`'),
            503: jsonBody({ type: 'object' }, '`status: "down"`: the database does not answer (same body, `reason` says so)'),
          },
        },
      },
    },
  }),
});
