/** The OpenAPI of POST /v1/map: the request from the zod schema that validates it, and the map answer. */
import { MAP_MAX_LIMIT, mapRequestSchema } from '../../../core/features/map/map.ts';
import { errorBody, jsonBody, toJson } from '../../openapi-shapes.ts';

const request = toJson(mapRequestSchema);

export const mapOpenApi = {
  paths: {
    '/v1/map': {
      post: {
        summary: 'List the URLs of a site (sitemap discovery)',
        description:
          'Reads, without scraping the other pages: the start page (one scrape: its title, links and announced ' +
          'feeds; a PDF or DOCX start URL too), sitemaps named by robots.txt `Sitemap:` lines and `/sitemap.xml` ' +
          '(sitemap indexes followed recursively, `.xml.gz` too, text sitemaps), and RSS/Atom feeds the start page ' +
          'links to. `sitemap` chooses the sources: `include` (default) all of them; `skip` no robots.txt and no ' +
          'sitemap, only the start page, its links and its feeds; `only` the sitemaps and the start URL (fetched, ' +
          'not scraped; a start URL that is itself a sitemap is read as one). With `filter_by_path` (default true) ' +
          "only URLs at or below the start URL's path are listed, by whole segments (`/docs` keeps `/docs/intro`, " +
          'not `/docsearch`; `/docs/index.html` stands for `/docs/`); the start URL itself always. Order: the ' +
          "start page, sitemap entries, feed entries, then the start page's links. One entry per URL (fragments " +
          'dropped; a trailing slash, a default port or the query order do not make another entry). In scope: the ' +
          "start URL's host (and where it redirected), `www.` ignored; with `include_subdomains` every host of " +
          `the same registrable domain. Limits (config \`[map]\`): ${MAP_MAX_LIMIT} links; by default 50 sitemap ` +
          'documents, index nesting 3, 20 MiB per sitemap after decompression, 30 s per request; what they cut off ' +
          'is named in `warnings` and the links found so far are returned. The answer is stored (endpoint `map`): ' +
          'its `id` reads it again at GET /v1/results/{id}, and GET /v1/cache/lookup?endpoint=map&url=… finds the ' +
          'newest map of a URL (cloud mode).',
        requestBody: { required: true, content: { 'application/json': { schema: request } } },
        responses: {
          200: jsonBody({ $ref: '#/components/schemas/MapResult' }, 'The links'),
          400: errorBody('Invalid request, e.g. `Missing required field: url`'),
          401: errorBody('Invalid or missing API key'),
          422: errorBody('Nothing was found and the start page could not be fetched (`Failed to fetch URL: <reason>`)'),
        },
      },
    },
  },
  schemas: {
    MapResult: {
      type: 'object',
      required: ['links'],
      properties: {
        id: { type: 'string', description: 'The stored result (GET /v1/results/{id}); absent when the ' + 'results sink is disabled.' },
        links: {
          type: 'array',
          items: {
            type: 'object',
            required: ['url'],
            properties: {
              url: { type: 'string', format: 'uri' },
              title: { type: 'string', description: 'Page title, feed entry title or link text, where known.' },
              lastmod: {
                type: 'string',
                format: 'date-time',
                description: 'From the sitemap `lastmod` or the feed ' + 'entry date, where known.',
              },
            },
          },
        },
        warnings: {
          type: 'array',
          items: { type: 'string' },
          description: 'Present when a source was skipped or a ' + 'limit cut the discovery short.',
        },
      },
    },
  },
};
