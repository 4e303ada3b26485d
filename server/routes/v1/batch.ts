/**
 * Batches over HTTP: `POST /v1/batch` (up to `crawl.batchMaxUrls` URLs plus the scrape options),
 * `GET /v1/batch/{id}` (status, counts and paginated results), `GET /v1/batch/{id}/stream` and
 * `DELETE /v1/batch/{id}`. A batch is a crawl without discovery, so it shares the crawl routes'
 * shapes and helpers.
 */
import type { Trawl } from '../../../core/container.ts';
import { CrawlTokens } from '../../../core/features/crawl/index.ts';
import { readJsonBody } from '../../body.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { v1BatchSchema } from '../../wire/v1/request.ts';
import { errorBody, jsonBody, pathId, paging, schemaRef, toJson } from '../../openapi-shapes.ts';
import { accepted, cancelDoc, eventStream, runStatusSchema, runSummarySchema, startDoc, STATES, statusWithResults, streamDoc } from './crawl.ts';

export function batchRoutes(trawl: Trawl) {
  const service = trawl.container.resolve(CrawlTokens.Service);
  const maxBody = trawl.config.server.maxBodyBytes;

  return {
    async start(request: Request, workspace: string) {
      const body = await readJsonBody(request, v1BatchSchema(service), maxBody);
      return accepted(await service.startBatch(body, workspace, v1Field), '/v1/batch');
    },

    async status(id: string, request: Request, workspace: string) {
      const run = await service.find(workspace, 'batch', id);
      return statusWithResults(service, run, request, `/v1/batch/${run.id}`);
    },

    async cancel(id: string, workspace: string) {
      const run = await service.cancel(workspace, 'batch', id);
      return { id: run.id, status: run.status };
    },

    async stream(id: string, request: Request, workspace: string, server: Parameters<typeof eventStream>[3]) {
      const run = await service.find(workspace, 'batch', id);
      return eventStream(service, { workspace, kind: 'batch', id: run.id }, request, server);
    },
  };
}

export function batchOpenApi(trawl: Trawl) {
  const service = trawl.container.resolve(CrawlTokens.Service);
  const unknown = { 401: errorBody('Invalid or missing API key'), 404: errorBody('`Batch not found`: unknown id, or the id of another workspace\'s batch') };
  return {
    paths: {
      '/v1/batch': startDoc(
        'Scrape many URLs as one asynchronous job',
        `\`urls\` (at most \`crawl.batchMaxUrls\`, ${trawl.config.crawl.batchMaxUrls} by default) plus the options of /v1/scrape, applied to every URL. ` +
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
      BatchRequest: toJson(v1BatchSchema(service)),
      BatchSummary: runSummarySchema('batch'),
    },
  };
}
