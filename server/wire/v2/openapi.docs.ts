/**
 * The OpenAPI of the /v2 routes: Firecrawl's v2 shapes, tagged `Firecrawl v2 compatibility` so the
 * document keeps them apart from Trawl's own API, with their own schemas (`V2…`) and error
 * envelope (`V2Error`). Request schemas come from the zod schemas that validate the bodies.
 */
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { ComposedRequest } from '../../../core/model/compose.ts';
import { PAGE_TYPES } from '../../../core/model/result.ts';
import { jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v2MapSchema, v2ScrapeSchema, v2SearchSchema } from './request.ts';
import { v2BatchSchema, v2CrawlSchema } from './run-request.ts';

export const V2_TAG = 'Firecrawl v2 compatibility';
const tags = [
  {
    name: V2_TAG,
    description:
      "Firecrawl's v2 API shapes over Trawl's features: point a Firecrawl SDK's `apiUrl` at this " +
      'server. Its own envelope (`{success, data}`, errors `{success: false, error, code, details?}`) and ' +
      'camelCase fields; never a translation through /v1.',
  },
];

const error = (description: string) => jsonBody(schemaRef('V2Error'), description);
const str = (description: string) => ({ type: 'string', description });
const operation = (summary: string, description: string, request: string | null, ok: unknown, errors: Record<number, string>) => ({
  tags: [V2_TAG],
  summary,
  description,
  ...(request ? { requestBody: { required: true, content: { 'application/json': { schema: schemaRef(request) } } } } : {}),
  responses: {
    200: jsonBody(ok, 'Success'),
    ...Object.fromEntries(Object.entries({ 401: 'Invalid or missing API key', ...errors }).map(([status, text]) => [status, error(text)])),
  },
});
const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const withId = <T extends object>(op: T) => ({ ...op, parameters: [jobId] });

const SHARED =
  "Firecrawl v2 request and response shapes, so Firecrawl's SDKs work with `apiUrl` set to this server. Same " +
  'bearer keys and workspaces as /v1. Options this server does not carry out are accepted and named in `warning`. ' +
  'Errors are `{success: false, error, code, details?}`.';

const v2Schemas = {
  V2Error: {
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { const: false },
      error: str('What went wrong; the SDKs throw with this message.'),
      code: str('e.g. BAD_REQUEST, ' + 'NOT_FOUND, SCRAPE_TIMEOUT'),
      details: { description: 'Validation issues of a 400: ' + '`[{code, path, message}]`.' },
    },
  },
  V2Document: {
    type: 'object',
    description: 'Only the requested formats are present.',
    properties: {
      markdown: { type: 'string' },
      html: str('The content as cleaned HTML.'),
      rawHtml: { type: 'string' },
      summary: { type: 'string' },
      links: { type: 'array', items: { type: 'string' } },
      images: { type: 'array', items: { type: 'string' } },
      screenshot: str('`data:image/png;base64,…` (full page).'),
      json: { description: "The `json` format's extracted data." },
      answer: str("The `question` format's answer."),
      attributes: { type: 'array', items: { type: 'object' } },
      actions: {
        type: 'object',
        properties: {
          screenshots: { type: 'array', items: { type: 'string' } },
          scrapes: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, html: { type: 'string' } } } },
          javascriptReturns: { type: 'array', items: { type: 'object' } },
          pdfs: { type: 'array', items: { type: 'string' } },
        },
      },
      warning: { type: 'string' },
      metadata: {
        type: 'object',
        required: ['sourceURL', 'url', 'statusCode'],
        properties: {
          title: { type: 'string' },
          description: { type: 'string' },
          language: { type: 'string' },
          sourceURL: str('The URL exactly as sent.'),
          url: str('Where the page led after redirects.'),
          statusCode: { type: 'integer' },
          error: str('The HTTP reason of a 4xx/5xx page.'),
          ogTitle: { type: 'string' },
          ogDescription: { type: 'string' },
          ogImage: { type: 'string' },
          ogSiteName: { type: 'string' },
          favicon: { type: 'string' },
          publishedTime: { type: 'string' },
          contentType: { type: 'string' },
          cacheState: { enum: ['hit', 'miss'] },
          pageType: {
            enum: [...PAGE_TYPES],
            description: "Trawl's, not Firecrawl's: what kind of page this is " + '(as /v1 `metadata.page_type`).',
          },
          contentConfidence: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description:
              "Trawl's, not Firecrawl's: " +
              "the chance the content is the page's main content, no more and no less (as /v1 " +
              '`metadata.content_confidence`).',
          },
        },
      },
    },
  },
  V2RunStatus: {
    type: 'object',
    required: ['success', 'status', 'completed', 'total', 'data'],
    properties: {
      success: { const: true },
      status: { enum: ['scraping', 'completed', 'failed', 'cancelled'] },
      completed: { type: 'integer' },
      total: { type: 'integer', description: 'Pages done or in flight ' + '(failed pages are in …/errors).' },
      creditsUsed: { type: 'integer', description: 'Pages processed, failed ones included.' },
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description:
          "The job's TTL: when the run and its documents are deleted (404 from then on), its end plus " +
          '`crawl.retentionHours` (24 h by default, as Firecrawl); while the run goes on, now plus the retention, ' +
          'the earliest it can be. Left out when runs are kept forever (`crawl.retentionHours` = 0).',
      },
      next: str(
        'Absolute URL of the next page: present while more finished pages exist past this one, or while ' +
          'the run goes on and this page had documents.',
      ),
      data: { type: 'array', items: schemaRef('V2Document') },
    },
  },
  V2RunStarted: {
    type: 'object',
    required: ['success', 'id', 'url'],
    properties: {
      success: { const: true },
      id: { type: 'string', format: 'uuid' },
      url: str('Where to poll (absolute).'),
      invalidURLs: { type: 'array', items: { type: 'string' } },
      warning: { type: 'string' },
    },
  },
  V2Errors: {
    type: 'object',
    required: ['errors', 'robotsBlocked'],
    properties: {
      errors: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'string' }, url: { type: 'string' }, error: { type: 'string' } } },
      },
      robotsBlocked: { type: 'array', items: { type: 'string' } },
    },
  },
};

export function v2ScrapeOpenApi(composed: ComposedRequest) {
  return {
    paths: {
      '/v2/scrape': {
        post: operation(
          'Scrape one URL (Firecrawl v2)',
          `${SHARED} Formats: markdown, html, rawHtml, links, ` +
            'images, screenshot, summary and {type: "json", prompt?, schema?} (both need a configured language ' +
            'model: 400 without one), {type: "attributes", selectors}, {type: "question", question}. `waitFor` must ' +
            'not exceed half of `timeout`; a scrape past its `timeout` is a 408 (SCRAPE_TIMEOUT).',
          'V2ScrapeRequest',
          { type: 'object', properties: { success: { const: true }, data: schemaRef('V2Document'), warning: { type: 'string' } } },
          {
            400: 'Invalid input (`details` lists every issue), e.g. `waitFor must not exceed half of timeout`',
            408: 'The scrape ran out of time',
            422: 'The page could not be ' + 'fetched or processed',
          },
        ),
      },
    },
    tags,
    schemas: { ...v2Schemas, V2ScrapeRequest: toJson(v2ScrapeSchema(composed)) },
  };
}

export function v2RunsOpenApi(service: CrawlService) {
  const hours = service.limits.retentionHours;
  const retention = hours === 0 ? ' (never: runs are kept forever here)' : ` (${hours} h after it ended here)`;
  const status = (kind: string) => ({
    ...withId(
      operation(
        `${kind} status and documents (Firecrawl v2)`,
        'Query `skip` (default 0) and `limit` ' +
          '(1–1000, default 100) page the documents, in completion order. A WebSocket upgrade on this path ' +
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
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
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

export const v2MapOpenApi = {
  paths: {
    '/v2/map': {
      post: operation(
        "List a site's URLs (Firecrawl v2)",
        `${SHARED} The start page, its sitemaps and feeds (as POST /v1/map); \`includeSubdomains\` defaults to ` +
          'true and `limit` to 5000. `sitemap`: `include` (default) every source; `skip` no robots.txt or sitemap, ' +
          "only the start page, its links and feeds; `only` the sitemaps' URLs and the start URL (fetched, not " +
          "scraped). `filterByPath` (default true) lists only URLs at or below the start URL's path by whole " +
          'segments (`/docs` keeps `/docs/intro`, not `/docsearch`; `/docs/index.html` stands for `/docs/`); a ' +
          'sitemap start URL is not filtered. `id` is the stored answer: GET /v1/results/{id} reads it (cloud mode).',
        'V2MapRequest',
        {
          type: 'object',
          properties: {
            success: { const: true },
            id: str('The stored map result; absent when the results sink is disabled.'),
            links: {
              type: 'array',
              items: { type: 'object', required: ['url'], properties: { url: { type: 'string' }, title: { type: 'string' } } },
            },
            warning: { type: 'string' },
          },
        },
        {
          400: 'Invalid input, e.g. `Invalid field sitemap: must be "include", "only" or "skip"`',
          422: 'Nothing found and the start ' + 'page could not be fetched',
        },
      ),
    },
  },
  tags,
  schemas: { V2MapRequest: toJson(v2MapSchema) },
};

export const v2SearchOpenApi = (composed: ComposedRequest) => ({
  paths: {
    '/v2/search': {
      post: operation(
        'Search the web (Firecrawl v2)',
        `${SHARED} Web results from the ` +
          'configured search providers (as POST /v1/search) in `data.web`; `limit` defaults to 10 (at most 50 ' +
          'here); with `scrapeOptions.formats` each result page is scraped into a Document. Only the `web` ' +
          'source is available.',
        'V2SearchRequest',
        {
          type: 'object',
          properties: {
            success: { const: true },
            data: {
              type: 'object',
              properties: {
                web: {
                  type: 'array',
                  items: {
                    allOf: [
                      {
                        type: 'object',
                        properties: {
                          url: { type: 'string' },
                          title: { type: 'string' },
                          description: { type: 'string' },
                          position: { type: 'integer' },
                        },
                      },
                      schemaRef('V2Document'),
                    ],
                  },
                },
              },
            },
            creditsUsed: { type: 'integer' },
            warning: { type: 'string' },
          },
        },
        { 400: 'Invalid input', 502: 'Every provider failed', 503: 'No search provider is configured' },
      ),
    },
  },
  tags,
  schemas: { V2SearchRequest: toJson(v2SearchSchema(composed)) },
});
