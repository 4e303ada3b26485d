/**
 * The stored results of the caller's workspace (cloud mode): `GET /v1/cache/lookup` (the newest
 * output for an endpoint and URL), `GET /v1/results` (newest first, paginated, without outputs),
 * `GET /v1/results/{id}` and `GET /v1/results/run/{usage_log_id}` (the output a billed call
 * produced: every billed call's answer is stored, server/route-runner.ts). Another workspace's ids answer 404 like unknown ones. Reading is not billed, and a
 * lapsed workspace may read.
 */
import { z } from 'zod';
import { TrawlError } from '../../../core/errors.ts';
import { MeterToken } from '../../../core/metering.ts';
import { isScrapeResult } from '../../../core/features/crawl/legacy.ts';
import { UsageToken } from '../../../core/features/accounts/usage.ts';
import { LOOKUP_ENDPOINTS } from '../../../core/features/results/outputs.ts';
import type { StoredResult, StoredResultSummary } from '../../../core/services.ts';
import { Tokens } from '../../../core/tokens.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef } from '../../openapi-shapes.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route } from '../../route.ts';
import { presentResult } from '../../wire/v1/present.ts';

const endpointName = z.string().min(1).max(64);
const lookupEndpoint = z.enum(LOOKUP_ENDPOINTS, { error: `endpoint must be one of: ${LOOKUP_ENDPOINTS.join(', ')}` });
const lookupQuery = z.object({ endpoint: lookupEndpoint.default('scrape'), url: z.string().min(1).max(8192) });
const listQuery = pagedQuery({ endpoint: endpointName.optional() });
/** Ids are UUIDs; anything much longer is not worth a query. */
const MAX_ID = 64;

const summary = (result: StoredResultSummary) => ({ id: result.id, endpoint: result.endpoint, url: result.url, created_at: result.createdAt });
/** Outputs are stored in the internal model and shown in the /v1 shape (rows from before it are shown as stored). */
const present = (result: StoredResult) => ({ ...summary(result), data: isScrapeResult(result.output) ? presentResult(result.output) : result.output });
const notFound = (what: string) => new TrawlError('not_found', what);

const resultSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    endpoint: { type: 'string', description: 'The billed call that produced it (`scrape` also for the pages of crawls, batches and maps, which the scrape cache stores; `map` for map answers; `search`, `extract`, `summarize`, `diff`, `brand`, `lead`, `lead_batch`, `endpoints`, `crawl`, `batch`, `social.audience` for those calls\' answers, cloud mode).' },
    url: { type: 'string', description: 'What it is found by: the requested URL; a search\'s query; empty for calls without one URL (batch, lead batch, audience export).' },
    created_at: dateTime('When it was produced'),
    data: { description: 'The output as the endpoint answered it: a scrape result for `scrape`; for every other endpoint the JSON body of its answer (a crawl, batch or lead batch start answers its run id: the pages are at GET /v1/crawl/{id}, /v1/batch/{id}, /v1/lead/batch/{id}).', type: 'object' },
  },
};
const unauthorized = { 401: errorBody('Invalid or missing API key') };

const resultsOpenApi = {
  paths: {
    '/v1/cache/lookup': {
      get: {
        summary: 'The newest stored output for an endpoint and URL',
        description: 'Whatever options it was made with and however old it is (its `created_at` says; outputs are kept `results.retentionDays`, 30 by default); answering it is free. The URL is matched exactly as it was requested. ' +
          'Every endpoint whose calls are keyed by one URL is served; for `search` the `url` parameter is the search query. Batches, lead batches and audience exports have no one URL: read them by run (GET /v1/results/run/{usage_log_id}) or id.',
        parameters: [
          { name: 'endpoint', in: 'query', schema: { type: 'string', enum: [...LOOKUP_ENDPOINTS], default: 'scrape' } },
          { name: 'url', in: 'query', required: true, schema: { type: 'string' }, description: 'The URL as requested; for `search`, the query.' },
        ],
        responses: { 200: jsonBody(schemaRef('StoredResult'), 'The output'), 400: errorBody(`\`Missing required field: url\`, or \`Invalid field endpoint: endpoint must be one of: ${LOOKUP_ENDPOINTS.join(', ')}\``), ...unauthorized, 404: errorBody('Nothing stored for this endpoint and URL in the workspace') },
      },
    },
    '/v1/results': {
      get: {
        summary: 'The workspace\'s stored results, newest first',
        description: 'Without their outputs (GET /v1/results/{id} has them).',
        parameters: [{ name: 'endpoint', in: 'query', schema: { type: 'string' } }, ...paging],
        responses: {
          200: jsonBody(pagedBody('results', { type: 'object', properties: { id: { type: 'string' }, endpoint: { type: 'string' }, url: { type: 'string' }, created_at: dateTime('When it was produced') } }), 'A slice of results'),
          400: errorBody(PAGING_ERROR), ...unauthorized,
        },
      },
    },
    '/v1/results/{id}': {
      get: { summary: 'One stored result', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: jsonBody(schemaRef('StoredResult'), 'The result'), ...unauthorized, 404: errorBody('Unknown id, or another workspace\'s') } },
    },
    '/v1/results/run/{usage_log_id}': {
      get: {
        summary: 'The output of one billed call',
        description: '`usage_log_id` is the call\'s `X-Usage-Id` header (or a run id of GET /v1/usage). The answer is the stored result with the run: `{…result, run: {id, endpoint, credits, status, created_at, run_id?}}` ' +
          '(`run_id`: the crawl, batch or lead batch the call started). Every succeeded billed call stores its answer, kept `results.retentionDays`; ' +
          'a failed call, an answer larger than `results.maxOutputBytes` (5 MiB by default: answered in full, not stored), a scrape with `store_in_cache: false`, or a server with the results sink disabled stores none, and answers 404 saying so.',
        parameters: [{ name: 'usage_log_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: jsonBody({ allOf: [schemaRef('StoredResult'), { type: 'object', properties: { run: { type: 'object' } } }] }, 'The output'), ...unauthorized, 404: errorBody('Unknown run, another workspace\'s, or a run without a stored result') },
      },
    },
  },
  schemas: { StoredResult: resultSchema },
};

export const resultsModule = defineRoutes({
  name: 'results',
  mounted: (env) => env.config.mode === 'cloud',
  needs: { results: Tokens.Results, usage: UsageToken, meter: MeterToken },
  routes: ({ results, usage, meter }) => [
    route({
      method: 'GET', path: '/v1/cache/lookup', query: lookupQuery,
      async handle({ query, workspace }) {
        const { endpoint, url } = query;
        const found = await results.latest(workspace, endpoint, url);
        if (!found) throw notFound(`No stored ${endpoint} result for this URL`);
        return present(found);
      },
    }),
    route({
      method: 'GET', path: '/v1/results', query: listQuery,
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await results.list(workspace, { endpoint: query.endpoint, ...page });
        return pageOf('results', items.map(summary), total, page, request);
      },
    }),
    {
      method: 'GET', path: '/v1/results/:id',
      async handle({ params, workspace }) {
        const found = params.id!.length <= MAX_ID ? await results.get(workspace, params.id!) : null;
        if (!found) throw notFound(`Result not found: ${params.id!.slice(0, MAX_ID)}`);
        return present(found);
      },
    },
    {
      method: 'GET', path: '/v1/results/run/:usage_log_id',
      async handle({ params, workspace }) {
        const id = params.usage_log_id!;
        await meter.settle();
        const run = id.length <= MAX_ID ? await usage.get(workspace, id) : null;
        if (!run) throw notFound(`Run not found: ${id.slice(0, MAX_ID)}`);
        if (!run.resultId) throw notFound(`Run ${run.id} (${run.endpoint}) stored no result: ${run.status === 'failed' ? 'it failed' : 'its answer was larger than results.maxOutputBytes, or storing results is off'}`);
        const found = await results.get(workspace, run.resultId);
        if (!found) throw notFound(`The result of run ${run.id} is no longer stored (results are kept for results.retentionDays)`);
        return { ...present(found), run: { id: run.id, endpoint: run.endpoint, credits: run.credits, status: run.status, created_at: run.createdAt, ...(run.runId ? { run_id: run.runId } : {}) } };
      },
    },
  ],
  openapi: () => resultsOpenApi,
});
