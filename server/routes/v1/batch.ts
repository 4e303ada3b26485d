/**
 * Batches over HTTP: `POST /v1/batch` (up to `crawl.batchMaxUrls` URLs plus the scrape options),
 * `GET /v1/batch/{id}` (status, counts and paginated results), `GET /v1/batch/{id}/stream` and
 * `DELETE /v1/batch/{id}`. A batch is a crawl without discovery, so it shares the crawl routes'
 * shapes and helpers.
 */
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { CrawlSettings } from '../../../core/features/crawl/config.ts';
import { readJsonBody } from '../../body.ts';
import { errorBody, jsonBody, pathId, paging, schemaRef, toJson } from '../../openapi-shapes.ts';
import { defineRoutes, type Route } from '../../route.ts';
import { accepted, cancelDoc, crawlNeeds, eventStream, runStatusSchema, runSummarySchema, startDoc, STATES, statusWithResults, streamDoc } from './crawl.ts';

function batchRoutes(service: CrawlService, maxBody: number) {
  return [
    {
      method: 'POST', path: '/v1/batch', body: 'manual',
      async handle({ request, workspace }) {
        const body = await readJsonBody(request, service.batchSchema, maxBody);
        return accepted(await service.startBatch(body, workspace), '/v1/batch');
      },
    },
    {
      method: 'GET', path: '/v1/batch/:id',
      async handle({ params, request, workspace }) {
        const run = await service.find(workspace, 'batch', params.id!);
        return statusWithResults(service, run, request, `/v1/batch/${run.id}`);
      },
    },
    {
      method: 'GET', path: '/v1/batch/:id/stream',
      async handle(input) {
        const run = await service.find(input.workspace, 'batch', input.params.id!);
        return eventStream(service, { workspace: input.workspace, kind: 'batch', id: run.id }, input);
      },
    },
    {
      method: 'DELETE', path: '/v1/batch/:id',
      async handle({ params, workspace }) {
        const run = await service.cancel(workspace, 'batch', params.id!);
        return { id: run.id, status: run.status };
      },
    },
  ] satisfies Route[];
}

function batchOpenApi(service: CrawlService, limits: Readonly<CrawlSettings>) {
  const unknown = { 401: errorBody('Invalid or missing API key'), 404: errorBody('`Batch not found`: unknown id, or the id of another workspace\'s batch') };
  return {
    paths: {
      '/v1/batch': startDoc(
        'Scrape many URLs as one asynchronous job',
        `\`urls\` (at most \`crawl.batchMaxUrls\`, ${limits.batchMaxUrls} by default) plus the options of /v1/scrape, applied to every URL. ` +
        'URLs that are the same after normalisation are scraped once. Pages are fetched with the same politeness, retries and failure rules as crawl ' +
        'pages, but robots.txt is not consulted: like /v1/scrape, a batch fetches exactly what it was given. The batch ends `completed` even when some ' +
        'or all URLs failed (each failed result has its `error`); `batch.completed` then goes to registered webhooks and to `webhook_url`.',
        schemaRef('BatchRequest'),
        'Invalid input, e.g. `Missing required field: urls`, too many URLs, an unknown format',
      ),
      '/v1/batch/{id}': {
        get: {
          summary: 'Batch status and results, paginated',
          description: `The summary and one page of results in completion order; \`next\` (same path, next page) only when more results exist. ${STATES}`,
          parameters: [pathId, ...paging],
          responses: { 200: jsonBody(runStatusSchema('BatchSummary'), 'The batch'), 400: errorBody('Invalid page or per_page'), ...unknown },
        },
        delete: cancelDoc('batch', unknown),
      },
      '/v1/batch/{id}/stream': streamDoc('batch'),
    },
    schemas: {
      BatchRequest: toJson(service.batchSchema),
      BatchSummary: runSummarySchema('batch'),
    },
  };
}

export const batchModule = defineRoutes({
  name: 'batch',
  needs: crawlNeeds,
  routes: ({ service }, env) => batchRoutes(service, env.config.server.maxBodyBytes),
  openapi: ({ service, limits }) => batchOpenApi(service, limits),
});
