/**
 * The OpenAPI of the /v2 crawl and batch-scrape routes: starting a run, its status and documents
 * (and the watcher socket on the same path), cancelling it and its errors, with the request
 * schemas from the zod schemas that validate the bodies.
 */
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import { schemaRef, toJson } from '../../openapi-shapes.ts';
import { tags, operation, jobId, withId, SHARED } from './openapi-parts.docs.ts';
import { v2BatchSchema, v2CrawlSchema } from './run-request.ts';
import { PAGE_DEFAULT, PAGE_MAX } from './runs.ts';

export function v2RunsOpenApi(service: CrawlService) {
  const hours = service.limits.retentionHours;
  const retention = hours === 0 ? ' (never: runs are kept forever here)' : ` (${hours} h after it ended here)`;
  const status = (kind: string) => ({
    ...withId(
      operation(
        `${kind} status and documents (Firecrawl v2)`,
        'Query `skip` (default 0) and `limit` ' +
          `(1–${PAGE_MAX}, default ${PAGE_DEFAULT}) page the documents, in completion order. A WebSocket upgrade on this path ` +
          'streams the run instead (`watcher()`): `catchup`, then one `document` message per finished page, then ' +
          'a normal close when the run is over.',
        null,
        schemaRef('V2RunStatus'),
        {
          400: 'Not a UUID, or a bad skip/limit',
          404: `Unknown id (or another workspace's), or a run past its \`expiresAt\`${retention}`,
        },
      ),
    ),
    parameters: [
      jobId,
      { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0 } },
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX } },
    ],
  });
  const cancel = (kind: string) =>
    withId(
      operation(
        `Cancel a ${kind} (Firecrawl v2)`,
        'Answers `{status: ' + '"cancelled"}`, also for a run cancelled before.',
        null,
        { type: 'object', properties: { status: { const: 'cancelled' } } },
        { 404: 'Unknown id', 409: 'The run already ended' },
      ),
    );
  const errors = (kind: string) =>
    withId(
      operation(
        `Failed pages of a ${kind} (Firecrawl v2)`,
        'Pages that could not be ' + 'scraped, and those robots.txt disallowed.',
        null,
        schemaRef('V2Errors'),
        { 404: 'Unknown id' },
      ),
    );
  return {
    paths: {
      '/v2/crawl': {
        post: operation(
          'Start a crawl (Firecrawl v2)',
          `${SHARED} ` +
            '`includePaths`/`excludePaths` are regular expressions (RE2) tested against the URL path; without ' +
            "`crawlEntireDomain` the crawl stays below the start URL's path; `limit` defaults to " +
            '`crawl.defaultMaxPages` and is capped at `crawl.maxPagesLimit`; `delay` (seconds) spaces fetches of ' +
            "a host; `sitemap` (default `include`) seeds the crawl with the site's sitemap and feed URLs, " +
            "`skip` follows links only, `only` crawls the start page and the sitemaps' URLs without following " +
            'links; `limit` is exact: min(limit, pages in scope), a link redirecting onto a known URL or out of ' +
            'scope does not use it up; links are discovered from the whole page whatever `scrapeOptions` says; ' +
            "`webhook` receives crawl.started, crawl.page, crawl.completed and crawl.failed in Firecrawl's " +
            'shape.',
          'V2CrawlRequest',
          schemaRef('V2RunStarted'),
          { 400: 'Invalid input, e.g. an ' + 'invalid regular expression', 402: 'Insufficient credits (cloud)' },
        ),
      },
      '/v2/crawl/active': {
        get: operation(
          "The workspace's running crawls (Firecrawl v2)",
          'Queued and running crawls, ' + 'newest first. Also at `/v2/crawl/ongoing`.',
          null,
          {
            type: 'object',
            properties: {
              success: { const: true },
              crawls: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    teamId: { type: 'string' },
                    url: { type: 'string' },
                    created_at: { type: 'string' },
                    options: { type: 'object' },
                  },
                },
              },
            },
          },
          {},
        ),
      },
      '/v2/crawl/{id}': { get: status('Crawl'), delete: cancel('crawl') },
      '/v2/crawl/{id}/errors': { get: errors('crawl') },
      '/v2/batch/scrape': {
        post: operation(
          'Scrape many URLs (Firecrawl v2)',
          `${SHARED} \`urls\` beside the ` +
            'scrape options; with `ignoreInvalidURLs` (default true) unusable URLs are listed in `invalidURLs` instead ' +
            'of failing the request.',
          'V2BatchRequest',
          schemaRef('V2RunStarted'),
          { 400: 'Invalid input, e.g. `No ' + 'valid URLs provided`' },
        ),
      },
      '/v2/batch/scrape/{id}': { get: status('Batch scrape'), delete: cancel('batch scrape') },
      '/v2/batch/scrape/{id}/errors': { get: errors('batch scrape') },
    },
    tags,
    schemas: { V2CrawlRequest: toJson(v2CrawlSchema(service)), V2BatchRequest: toJson(v2BatchSchema(service)) },
  };
}
