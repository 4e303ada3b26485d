/**
 * Batches over HTTP: `POST /v1/batch` (up to `crawl.batchMaxUrls` URLs plus the scrape options),
 * `GET /v1/batch/{id}` (status, counts and paginated results), `GET /v1/batch/{id}/stream` and
 * `DELETE /v1/batch/{id}`. A batch is a crawl without discovery, so it shares the crawl routes'
 * shapes and helpers.
 */
import { defineRoutes } from '../../route.ts';
import { crawlNeeds, runRoutes } from './crawl.ts';
import { batchOpenApi } from '../../wire/v1/batch.docs.ts';

export const batchModule = defineRoutes({
  name: 'batch',
  needs: crawlNeeds,
  routes: ({ service }) => runRoutes(service, 'batch', (id) => `/v1/batch/${id}`),
  openapi: ({ service, limits }) => batchOpenApi(service, limits),
});
