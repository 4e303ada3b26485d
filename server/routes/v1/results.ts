/**
 * The stored results of the caller's workspace (cloud mode): `GET /v1/cache/lookup` (the newest
 * output for an endpoint and URL), `GET /v1/results` (newest first, paginated, without outputs),
 * `GET /v1/results/{id}` and `GET /v1/results/run/{usage_log_id}` (the output a billed call
 * produced: every billed call's answer is stored, server/route-runner.ts). Another workspace's ids
 * answer 404 like unknown ones. Reading is not billed, and a lapsed workspace may read.
 */
import { TrawlError } from '../../../core/errors.ts';
import { MeterToken } from '../../../core/metering.ts';
import { UsageToken } from '../../../core/features/accounts/usage.ts';
import { Tokens } from '../../../core/tokens.ts';
import { pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route } from '../../route.ts';
import { resultsOpenApi } from '../../wire/v1/results.docs.ts';
import { listQuery, lookupQuery, presentResultSummary, presentStoredResult } from '../../wire/v1/results.ts';

const notFound = (what: string) => new TrawlError('not_found', what);

export const resultsModule = defineRoutes({
  name: 'results',
  mounted: (env) => env.config.mode === 'cloud',
  needs: { results: Tokens.Results, usage: UsageToken, meter: MeterToken },
  routes: ({ results, usage, meter }) => [
    route({
      method: 'GET',
      path: '/v1/cache/lookup',
      query: lookupQuery,
      async handle({ query, workspace }) {
        const { endpoint, url } = query;
        const found = await results.latest(workspace, endpoint, url);
        if (!found) throw notFound(`No stored ${endpoint} result for this URL`);
        return presentStoredResult(found);
      },
    }),
    route({
      method: 'GET',
      path: '/v1/results',
      query: listQuery,
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await results.list(workspace, { endpoint: query.endpoint, ...page });
        return pageOf('results', items.map(presentResultSummary), total, page, request);
      },
    }),
    {
      method: 'GET',
      path: '/v1/results/:id',
      async handle({ params, workspace }) {
        // The id is a UUID by now (server/query.ts checkParams answers any other 404 first).
        const found = await results.get(workspace, params.id!);
        if (!found) throw notFound(`Result not found: ${params.id}`);
        return presentStoredResult(found);
      },
    },
    {
      method: 'GET',
      path: '/v1/results/run/:usage_log_id',
      async handle({ params, workspace }) {
        const id = params.usage_log_id!;
        await meter.settle();
        const run = await usage.get(workspace, id);
        if (!run) throw notFound(`Run not found: ${id}`);
        if (!run.resultId)
          throw notFound(
            `Run ${run.id} (${run.endpoint}) stored no result: ${run.status === 'failed' ? 'it failed' : 'its answer was larger than results.maxOutputBytes, or storing results is off'}`,
          );
        const found = await results.get(workspace, run.resultId);
        if (!found) throw notFound(`The result of run ${run.id} is no longer stored (results are kept for results.retentionDays)`);
        return {
          ...presentStoredResult(found),
          run: {
            id: run.id,
            endpoint: run.endpoint,
            credits: run.credits,
            status: run.status,
            created_at: run.createdAt,
            ...(run.runId ? { run_id: run.runId } : {}),
          },
        };
      },
    },
  ],
  openapi: () => resultsOpenApi,
});
