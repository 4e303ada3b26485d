/** The OpenAPI of POST /v1/search: the request from the zod schema that validates it, and the search hit record. */
import { SEARCH_DEFAULT_RESULTS, SEARCH_MAX_RESULTS } from '../../../core/features/search/request.ts';
import { errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v1SearchSchema } from './request.ts';

const str = (description: string) => ({ type: 'string', description });

const searchHitSchema = {
  type: 'object',
  required: ['url', 'title', 'description', 'position'],
  properties: {
    url: {
      type: 'string',
      format: 'uri',
      description:
        'The page as the provider listed it (one entry per page: ' + "the URL module's normalisation decides what is the same page).",
    },
    title: str('Title as the provider gave it, as plain text.'),
    description: str("The provider's snippet, as plain text (may be empty)."),
    position: { type: 'integer', minimum: 1, description: 'Rank, 1 = best, contiguous after duplicates are removed.' },
  },
};

export const searchOpenApi = {
  paths: {
    '/v1/search': {
      post: {
        summary: 'Search the web and scrape the results',
        description:
          'Asks the configured search providers (`[plugins.search.*]`: SearXNG by `url`; Brave, Serper, Tavily by ' +
          "`apiKey`; DuckDuckGo's keyless page when enabled) in order (`search.providers`, else searxng, brave, " +
          'serper, tavily, duckduckgo). The first that answers with results wins; a provider that fails (key ' +
          'rejected, rate limited, a CAPTCHA page, SearXNG with JSON output disabled, its engines failing) or ' +
          'finds nothing hands over to the next, and each such outcome is a line in `warnings`. A rate-limited ' +
          'provider is not asked again until its Retry-After has passed. Results are deduplicated by URL, at most ' +
          `\`num_results\` (default ${SEARCH_DEFAULT_RESULTS}, 1–${SEARCH_MAX_RESULTS}). With \`scrape\` (default ` +
          'true) every result page is scraped through the /v1/scrape pipeline in parallel (`search.concurrency` at ' +
          'a time, `search.resultTimeoutMs` each, the SSRF guard applied to every page) into `formats`; a page ' +
          "that fails gets its `error` and the others still return. The providers' list is cached per workspace, " +
          'query, `num_results`, `country` and `lang` for `storage.cacheTtlSeconds` (header `X-Trawl-Cache: ' +
          'hit|miss`) and each page like any scrape; `no_cache` skips both. `Server-Timing` has `search` ' +
          "(providers) and `scrape` (pages). `country` and `lang` are passed on in each provider's own spelling; " +
          'one a provider cannot apply (Tavily has no language filter, SearXNG no region without a language) is ' +
          'named in `warnings`.',
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('SearchRequest') } } },
        responses: {
          200: jsonBody(
            schemaRef('SearchResponse'),
            'Results; `results` is empty only when every provider ' + 'answered and found nothing, and `warnings` then says so for each',
          ),
          400: errorBody(
            'Invalid request, e.g. `Missing required field: query`, `Invalid field num_results: Too ' +
              'big: expected number to be <=50`, `Invalid field country: unknown country code "xx" (ISO 3166-1 ' +
              'alpha-2, e.g. "us")`, an unknown format',
          ),
          401: errorBody('Invalid or missing API key'),
          413: errorBody('Request body too large'),
          502: errorBody(
            'Every provider failed, each with its reason: `Every search provider failed: ' +
              'search.searxng: the instance refuses JSON output (HTTP 403): add `json` to search.formats in its ' +
              'settings.yml; search.brave: …`',
          ),
          503: errorBody(
            '`No search provider is configured: set plugins.search.<name> (…)`, or every provider is ' +
              'rate limited (`Every search provider is rate limited: …`, with `Retry-After` for the soonest)',
          ),
        },
      },
    },
  },
  schemas: {
    SearchRequest: toJson(v1SearchSchema),
    SearchHit: searchHitSchema,
    SearchResult: {
      description: 'One result, best first.',
      anyOf: [
        {
          description:
            "Scraped (`scrape: true`): the search fields plus the page's scrape result (metadata, the " + 'requested formats, warnings).',
          allOf: [schemaRef('SearchHit'), schemaRef('ScrapeResult')],
        },
        {
          description:
            'The page could not be scraped (`scrape: true`): the search fields and why, e.g. `Failed to ' +
            'fetch URL: address 10.0.0.5 is not allowed (private network)` or `Scrape timed out after 30000 ms`.',
          allOf: [
            schemaRef('SearchHit'),
            {
              type: 'object',
              required: ['error'],
              properties: { error: str('Why this page has no ' + 'content; the other results are unaffected.') },
            },
          ],
        },
        { description: 'Not scraped (`scrape: false`).', allOf: [schemaRef('SearchHit')] },
      ],
    },
    SearchResponse: {
      type: 'object',
      required: ['query', 'provider', 'results'],
      properties: {
        query: str('The query as searched (trimmed).'),
        provider: str('Plugin id of the provider whose results these are, e.g. `search.searxng`.'),
        results: { type: 'array', items: schemaRef('SearchResult') },
        warnings: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Present when a provider failed, found ' +
            'nothing or could not apply a field: `<plugin id>: <reason>` lines, in the order the providers were ' +
            'asked.',
        },
      },
    },
  },
};
