/** The OpenAPI of the batch routes, sharing the crawl routes' run shapes (crawl.docs.ts). */
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { CrawlSettings } from '../../../core/features/crawl/config.ts';
import { errorBody, jsonBody, pathId, paging, PAGING_ERROR, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v1BatchSchema } from './request.ts';
import { cancelDoc, retentionText, runStatusSchema, runSummarySchema, startDoc, STATES, streamDoc } from './crawl.docs.ts';

export function batchOpenApi(service: CrawlService, limits: Readonly<CrawlSettings>) {
  const unknown = {
    401: errorBody('Invalid or missing API key'),
    404: errorBody('`Batch not found`: unknown id, ' + "the id of another workspace's batch, or a batch past its `expires_at`"),
  };
  return {
    paths: {
      '/v1/batch': startDoc(
        'Scrape many URLs as one asynchronous job',
        `\`urls\` (at most \`crawl.batchMaxUrls\`, ${limits.batchMaxUrls} by default) plus the options of ` +
          '/v1/scrape, applied to every URL. URLs that are the same after normalisation are scraped once. Pages are ' +
          'fetched with the same politeness, retries and failure rules as crawl pages, but robots.txt is not ' +
          'consulted: like /v1/scrape, a batch fetches exactly what it was given. The batch ends `completed` even ' +
          'when some or all URLs failed (each failed result has its `error`); `batch.completed` then goes to ' +
          'registered webhooks and to `webhook_url`.',
        schemaRef('BatchRequest'),
        'Invalid input, e.g. `Missing required field: urls`, too many URLs, an unknown format',
      ),
      '/v1/batch/{id}': {
        get: {
          summary: 'Batch status and results, paginated',
          description:
            "The summary (its `total` is the batch's URL count) and one slice of results in completion " +
            `order; \`next\` (same path, next slice) only when more results exist. ${STATES} ` +
            `${retentionText(limits)}`,
          parameters: [pathId, ...paging],
          responses: { 200: jsonBody(runStatusSchema('BatchSummary'), 'The batch'), 400: errorBody(PAGING_ERROR), ...unknown },
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
