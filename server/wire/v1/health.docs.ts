/** The OpenAPI of GET /health: what each status means and everything the report holds. */
import { jsonBody } from '../../openapi-shapes.ts';

export const healthOpenApi = {
  paths: {
    '/health': {
      get: {
        summary: 'Health check',
        description:
          '`status` is `down` (HTTP 503) when the database does not answer; `degraded` (HTTP 200) when Chromium is ' +
          'missing while the browser fetcher is enabled, the job queue is stalled (its oldest due job has waited ' +
          'past `health.queueLagSeconds`, or jobs are due and no worker process is alive), or a configured ' +
          'language-model or search provider is failing; else `ok`. `reason` names each problem, `; `-separated.',
        security: [],
        responses: {
          200: jsonBody(
            { type: 'object' },
            '`status` (ok, degraded), `reason` (when degraded), version, ' +
              '`database` {dialect, status}, `browser` {enabled, available, reason, launched, pid, launches, ' +
              'pages_served, active_contexts, open_contexts, waiting}, `queue` {status (ok, stalled, unknown), ' +
              'depth, due, running, oldest_due_lag_seconds, workers_alive (processes that reported within a lease), ' +
              'workers_here, kinds: [{kind, queued, due, running, lag_seconds}]}, plugin counts, content-worker pool ' +
              'statistics, `llm`: `status` (configured or not), `provider` (the one that answers) and `providers`, ' +
              'each `{id, configured, status}` — status `ok`, `unreachable`, `model missing`, `loading`, `error` or ' +
              "`not configured` — plus, when configured, `model`, `endpoint`, `detail` and `runtime` (Ollama's " +
              "version; the local model's load state `not loaded`, `loading`, `loaded` or `failed`, load time, " +
              'context size, threads), and `search`: `status` (configured or not) and `providers`, each `{id, ' +
              'configured}` plus, when configured, `state` (unused, ok, failing, rate_limited), `endpoint`, ' +
              '`last_error` {message, at}, `last_success_at`, `retry_at`',
          ),
          503: jsonBody({ type: 'object' }, '`status: "down"`: the database does not answer (same body, `reason` says so)'),
        },
      },
    },
  },
};
