/**
 * The stored results of the caller's workspace (cloud mode): `GET /v1/cache/lookup` (the newest
 * output for an endpoint and URL), `GET /v1/results` (newest first, paginated, without outputs),
 * `GET /v1/results/{id}` and `GET /v1/results/run/{usage_log_id}` (the output a billed call
 * produced). Another workspace's ids answer 404 like unknown ones. Reading is not billed, and a
 * lapsed workspace may read.
 */
import { z } from 'zod';
import { TrawlError } from '../../../core/errors.ts';
import { MeterToken } from '../../../core/metering.ts';
import { isScrapeResult } from '../../../core/features/crawl/legacy.ts';
import { UsageToken } from '../../../core/features/accounts/usage.ts';
import { Tokens, type StoredResult, type StoredResultSummary } from '../../../core/services.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef } from '../../openapi-shapes.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route } from '../../route.ts';
import { presentResult } from '../../wire/v1/present.ts';

const endpointName = z.string().min(1).max(64);
const lookupQuery = z.object({ endpoint: endpointName.default('scrape'), url: z.string().min(1).max(8192) });
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
    id: { type: 'string' }, endpoint: { type: 'string', description: 'What produced it: `scrape` for scrapes and the pages of crawls, batches and maps (a map\'s start page); `map` for the answers of POST /v1/map and /v2/map.' },
    url: { type: 'string' }, created_at: dateTime('When it was produced'),
    data: { description: 'The output as the endpoint answered it (a scrape result for `scrape`, `{links, warnings?}` for `map`).', type: 'object' },
  },
};
const unauthorized = { 401: errorBody('Invalid or missing API key') };

const resultsOpenApi = {
  paths: {
    '/v1/cache/lookup': {
      get: {
        summary: 'The newest stored output for an endpoint and URL',
        description: 'Whatever options it was made with and however old it is (its `created_at` says); answering it is free. The URL is matched exactly as it was requested.',
        parameters: [
          { name: 'endpoint', in: 'query', schema: { type: 'string', default: 'scrape' } },
          { name: 'url', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: { 200: jsonBody(schemaRef('StoredResult'), 'The output'), 400: errorBody('`Missing required field: url`'), ...unauthorized, 404: errorBody('Nothing stored for this endpoint and URL in the workspace') },
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
        description: '`usage_log_id` is the call\'s `X-Usage-Id` header (or a run id of GET /v1/usage). The answer is the stored result with the run: `{…result, run: {id, endpoint, credits, status, created_at}}`. ' +
          'A call that stored no result (a failed call, a crawl or batch start: its pages are at /v1/crawl/{id}/pages and /v1/batch/{id}) answers 404 saying so.',
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
        if (!run.resultId) {
          const where = run.runId ? `: its pages are at /v1/${run.endpoint === 'batch' ? 'batch' : 'crawl'}/${run.runId}` : '';
          throw notFound(`Run ${run.id} (${run.endpoint}) stored no result${where}`);
        }
        const found = await results.get(workspace, run.resultId);
        if (!found) throw notFound(`The result of run ${run.id} is no longer stored`);
        return { ...present(found), run: { id: run.id, endpoint: run.endpoint, credits: run.credits, status: run.status, created_at: run.createdAt } };
      },
    },
  ],
  openapi: () => resultsOpenApi,
});
