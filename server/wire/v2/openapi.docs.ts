/**
 * The OpenAPI of the /v2 routes: Firecrawl's v2 shapes, tagged `Firecrawl v2 compatibility` so the
 * document keeps them apart from Trawl's own API, with their own schemas (`V2…`) and error
 * envelope (`V2Error`). Request schemas come from the zod schemas that validate the bodies.
 */
import type { ComposedRequest } from '../../../core/model/compose.ts';
import { PAGE_TYPES } from '../../../core/model/result.ts';
import { schemaRef, toJson } from '../../openapi-shapes.ts';
import { tags, str, operation, SHARED } from './openapi-parts.docs.ts';
import { v2MapSchema, v2ScrapeSchema, v2SearchSchema } from './request.ts';

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
