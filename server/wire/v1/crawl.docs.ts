/**
 * The OpenAPI of the crawl routes (server/routes/v1/crawl.ts), and the run shapes that
 * batch.docs.ts shares: every decision the interface left open, with the configured limits
 * filled in.
 */
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { CrawlSettings } from '../../../core/features/crawl/config.ts';
import {
  dateTime,
  errorBody,
  jsonBody,
  pageFields,
  pagedBody,
  paging,
  PAGING_ERROR,
  pathId,
  schemaRef,
  toJson,
} from '../../openapi-shapes.ts';
import { v1CrawlSchema } from './request.ts';

const count = (description: string) => ({ type: 'integer', description });
const nextLink = {
  type: 'string',
  description: 'Path of the next slice of results (with `limit` and `offset`); ' + 'present only when more results exist right now.',
};
export const STATES =
  'States: `queued` (accepted, no page started) → `scraping` (pages running; discovery still going) → `completed` ' +
  '(every admitted page finished, so discovery is over too) or `failed` (a crawl none of whose pages could be ' +
  'scraped; `error` says why) or `cancelled` (DELETE). A page that fails does not fail the run: it is a result ' +
  'with `status: "failed"` and its `error`.';

/** How long a finished run stays, with the configured retention. */
export const retentionText = (limits: Readonly<CrawlSettings>) =>
  limits.retentionHours === 0
    ? 'Finished runs are kept forever (`crawl.retentionHours` = 0), so `expires_at` is null.'
    : `A finished run and its results are kept ${limits.retentionHours} h (\`crawl.retentionHours\`) after it ended, ` +
      'until `expires_at`; then it answers 404 and is deleted.';

/** Summary fields shared by crawl and batch answers. */
export function runSummarySchema(kind: 'crawl' | 'batch') {
  return {
    type: 'object',
    required: ['id', 'status', 'total', 'completed', 'failed', 'created_at', 'updated_at', 'completed_at', 'expires_at'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      status: { type: 'string', enum: ['queued', 'scraping', 'completed', 'failed', 'cancelled'], description: STATES },
      ...(kind === 'crawl' ? { url: { type: 'string', description: 'Start URL.' } } : {}),
      total: count(
        kind === 'crawl'
          ? 'Pages admitted so far (grows while links are discovered; never above max_pages).'
          : 'Distinct URLs of the batch.',
      ),
      completed: count('Pages scraped.'),
      failed: count('Pages that failed after their retries.'),
      created_at: dateTime('When the run was accepted.'),
      updated_at: dateTime('Last change.'),
      completed_at: dateTime('When the run ended (completed, failed or cancelled).', true),
      expires_at: dateTime(
        'When the run and its results are deleted, answering 404 from then on: `completed_at` plus ' +
          '`crawl.retentionHours`; while the run goes on, now plus the retention (the earliest it can be). Null when ' +
          'runs are kept forever (`crawl.retentionHours` = 0).',
        true,
      ),
      ...(kind === 'crawl'
        ? {
            error: { type: ['string', 'null'], description: "Why the crawl failed (the start page's failure)." },
            retry_of: { type: 'string', description: 'On a retry: the id of the original crawl.' },
          }
        : {}),
    },
  };
}

const pageSchema = {
  description:
    'A finished page, in completion order. Completed pages carry the scrape result (the requested ' +
    'formats and metadata); failed pages carry `error`.',
  oneOf: [
    {
      allOf: [
        schemaRef('ScrapeResult'),
        {
          type: 'object',
          required: ['status', 'depth'],
          properties: { status: { const: 'completed' }, depth: count('Link hops from the start ' + 'page (0 for batch URLs).') },
        },
      ],
    },
    {
      type: 'object',
      required: ['url', 'status', 'depth', 'error'],
      properties: {
        url: { type: 'string' },
        status: { const: 'failed' },
        depth: count('Link hops from the start page.'),
        error: {
          type: 'string',
          description: 'e.g. `Failed to fetch URL: ' + 'connection refused`, `Unsupported content type: …`, `Disallowed by robots.txt`.',
        },
      },
    },
  ],
};

export const runStatusSchema = (summary: string) => ({
  allOf: [
    schemaRef(summary),
    {
      type: 'object',
      required: ['limit', 'offset', 'data'],
      properties: {
        limit: pageFields.limit,
        offset: pageFields.offset,
        data: { type: 'array', items: schemaRef('CrawlPage') },
        next: nextLink,
      },
    },
  ],
});

/** POST that starts a run: 202 with the id, or why the input was refused. */
export const startDoc = (summary: string, description: string, schema: unknown, invalid: string) => ({
  post: {
    summary,
    description,
    requestBody: { required: true, content: { 'application/json': { schema } } },
    responses: {
      202: jsonBody(schemaRef('RunAccepted'), 'Accepted; `Location` names the status URL'),
      400: errorBody(invalid),
      401: errorBody('Invalid or missing API key'),
      413: errorBody('Request body too large'),
    },
  },
});

export const cancelDoc = (kind: 'crawl' | 'batch', unknown: Record<number, unknown>) => ({
  summary: `Cancel a ${kind}`,
  description: 'Queued pages are dropped and pages still running are not recorded. Cancelling a cancelled ' + 'run answers 200 again.',
  parameters: [pathId],
  responses: {
    200: jsonBody({ type: 'object', properties: { id: { type: 'string' }, status: { const: 'cancelled' } } }, 'Cancelled'),
    409: errorBody(`\`${kind === 'crawl' ? 'Crawl' : 'Batch'} <id> already completed\` (or failed)`),
    ...unknown,
  },
});

export const streamDoc = (kind: 'crawl' | 'batch') => ({
  get: {
    summary: `Stream the ${kind}'s pages as Server-Sent Events`,
    description:
      'One `page` event per finished page (`id:` its sequence number, `data:` the page as in `/pages`), in order, ' +
      `then one \`end\` event whose \`data\` is the ${kind} summary with its end state, and the stream closes. ` +
      'Reconnecting with `Last-Event-ID` (or `?last_event_id=`) resumes after that page without gaps; from 0 every ' +
      'page so far is replayed first. A comment line is sent every 15 s to keep the connection open.',
    parameters: [
      pathId,
      { name: 'Last-Event-ID', in: 'header', schema: { type: 'integer', minimum: 0 } },
      { name: 'last_event_id', in: 'query', schema: { type: 'integer', minimum: 0 } },
    ],
    responses: {
      200: {
        description: 'text/event-stream',
        content: {
          'text/event-stream': {
            schema: {
              type: 'string',
              example:
                'id: 1\nevent: page\ndata: ' +
                '{"url":"…","status":"completed",…}\n\nevent: end\ndata: {"id":"…","status":"completed",…}\n\n',
            },
          },
        },
      },
      400: errorBody('Invalid Last-Event-ID'),
      401: errorBody('Invalid or missing API key'),
      404: errorBody(`\`${kind === 'crawl' ? 'Crawl' : 'Batch'} not found\``),
    },
  },
});

export function crawlOpenApi(service: CrawlService, limits: Readonly<CrawlSettings>) {
  const unknown = {
    401: errorBody('Invalid or missing API key'),
    404: errorBody('`Crawl not found`: unknown id, ' + "the id of another workspace's crawl, or a crawl past its `expires_at`"),
  };
  return {
    paths: {
      '/v1/crawl': startDoc(
        'Start a crawl',
        'Asynchronous: answers 202 with the id, then pages are scraped by the job workers (any process with role ' +
          `\`worker\` or \`all\`). \`max_depth\` defaults to ${limits.defaultMaxDepth} (at most ` +
          `${limits.maxDepthLimit}); \`max_pages\` to ${limits.defaultMaxPages} (at most ${limits.maxPagesLimit}), ` +
          'counting failed pages, and is never exceeded; a crawl returns exactly `max_pages` pages or every page in ' +
          'scope, whichever is fewer. URLs are deduplicated after normalisation (fragment dropped, default port ' +
          'dropped, trailing slash ignored, query parameters sorted, escapes upper-cased); a followed link that ' +
          'redirects onto a URL the crawl already has, or out of its scope, is dropped and its slot goes to the next ' +
          'link found (links found beyond `max_pages` wait for such a slot). Links are discovered from every `<a ' +
          'href>` and `<area href>` of each page as fetched or rendered, whatever `scrape_options` says (main ' +
          'content and selectors shape the results, not the crawl). `sitemap`: `skip` (default) links only; ' +
          "`include` adds the URLs in scope of the site's sitemaps and feeds (as POST /v1/map reads them); `only` " +
          'crawls the start page and those URLs, following no link. Links are followed on the start host (and the ' +
          'host the start page redirected to), on hosts of the same registrable domain with `allow_subdomains`, ' +
          'anywhere with `allow_external_links`; `include_paths`/`exclude_paths` are globs on the URL path of ' +
          "discovered links (`*`, `**`, `?`, `[...]`, `{a,b}` with picomatch's meaning; extglobs and `!` are " +
          'refused; matched in linear time; paths over 2,048 characters are not followed; the start page is always ' +
          'scraped; exclusion wins). Links to images, media, fonts, scripts and archives are not followed; documents ' +
          '(PDF, DOCX, XLSX, CSV) are scraped through their document plugins. robots.txt is obeyed for the ' +
          'user-agent token of `fetch.userAgent` (4xx: allowed; 5xx or unreachable: disallowed, re-checked after a ' +
          'minute); `Crawl-delay` is honoured (capped at `crawl.maxCrawlDelaySeconds`). At most ' +
          '`crawl.perHostConcurrency` fetches per host run at once, starts spaced by `crawl.perHostDelayMs` or the ' +
          'Crawl-delay — on Postgres across all worker processes together (a shared per-host row), on SQLite in the ' +
          'one process. No response, the scrape time limit and HTTP 429/5xx are retried with exponential backoff up ' +
          `to \`crawl.maxAttempts\` (${limits.maxAttempts}) tries; pages answering other 4xx are results with their ` +
          'status. Results are stored scrape results, so `storage.cacheTtlSeconds` applies unless ' +
          '`scrape_options.no_cache` is set. Events: `crawl.completed` / `crawl.failed` to registered webhooks and ' +
          'to `webhook_url` (none for a cancelled crawl).',
        toJson(v1CrawlSchema(service)),
        'Invalid input, e.g. `Missing required field: url`, or a format or option whose plugin is unavailable',
      ),
      '/v1/crawl/{id}': {
        get: {
          summary: 'Crawl status with its first results',
          description:
            'The summary (status, counts, timestamps) and one page of results in completion order; ' +
            `\`next\` points to \`/v1/crawl/{id}/pages\` only when more results exist. ${STATES} ` +
            `${retentionText(limits)}`,
          parameters: [pathId, ...paging],
          responses: { 200: jsonBody(runStatusSchema('CrawlSummary'), 'The crawl'), 400: errorBody(PAGING_ERROR), ...unknown },
        },
        delete: cancelDoc('crawl', unknown),
      },
      '/v1/crawl/{id}/pages': {
        get: {
          summary: 'All results of a crawl, paginated',
          parameters: [
            pathId,
            ...paging,
            {
              name: 'status',
              in: 'query',
              schema: { type: 'string', enum: ['completed', 'failed'] },
              description: 'Only completed or only failed pages.',
            },
          ],
          responses: {
            200: jsonBody(
              pagedBody('data', schemaRef('CrawlPage'), { total: count('Finished pages matching the filter.') }),
              'One slice of results',
            ),
            400: errorBody(`Invalid status; ${PAGING_ERROR}`),
            ...unknown,
          },
        },
      },
      '/v1/crawl/{id}/stream': streamDoc('crawl'),
      '/v1/crawl/history': {
        get: {
          summary: "The workspace's crawls, newest first",
          description: 'Crawls past their `expires_at` are left out.',
          parameters: paging,
          responses: {
            200: jsonBody(pagedBody('crawls', schemaRef('CrawlSummary')), 'One slice'),
            400: errorBody(PAGING_ERROR),
            401: errorBody('Invalid or missing API key'),
          },
        },
      },
      '/v1/crawl/{id}/retry': {
        post: {
          summary: 'Run a finished crawl again',
          description:
            'A new crawl (new id, `retry_of` = the original) with the original request, checked against ' +
            'the current configuration. Any body is ignored.',
          parameters: [pathId],
          responses: {
            202: jsonBody(schemaRef('RunAccepted'), 'The new crawl'),
            409: errorBody('The original is still ' + 'queued or scraping'),
            400: errorBody('The original request is no longer valid'),
            ...unknown,
          },
        },
      },
    },
    schemas: {
      CrawlRequest: toJson(v1CrawlSchema(service)),
      RunAccepted: {
        type: 'object',
        required: ['id', 'status', 'created_at'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          status: { const: 'queued' },
          url: { type: 'string', description: 'Crawls: the start URL.' },
          created_at: dateTime('Accepted at.'),
          retry_of: { type: 'string' },
        },
      },
      CrawlSummary: runSummarySchema('crawl'),
      CrawlPage: pageSchema,
    },
  };
}
