/** The OpenAPI of the stored results: the lookup, the list, one result and a billed call's output, and the StoredResult record. */
import { LOOKUP_ENDPOINTS } from '../../../core/features/results/outputs.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef } from '../../openapi-shapes.ts';

const resultSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    endpoint: {
      type: 'string',
      description:
        'The billed call that produced it (`scrape` also for the pages of ' +
        'crawls, batches and maps, which the scrape cache stores; `map` for map answers; `search`, `extract`, ' +
        '`summarize`, `diff`, `brand`, `lead`, `lead_batch`, `endpoints`, `crawl`, `batch`, `social.audience` for ' +
        "those calls' answers, cloud mode).",
    },
    url: {
      type: 'string',
      description:
        "What it is found by: the requested URL; a search's query; empty for " +
        'calls without one URL (batch, lead batch, audience export).',
    },
    created_at: dateTime('When it was produced'),
    data: {
      description:
        'The output as the endpoint answered it: a scrape result for `scrape`; for every other ' +
        'endpoint the JSON body of its answer (a crawl, batch or lead batch start answers its run id: the pages are ' +
        'at GET /v1/crawl/{id}, /v1/batch/{id}, /v1/lead/batch/{id}).',
      type: 'object',
    },
  },
};
const unauthorized = { 401: errorBody('Invalid or missing API key') };

export const resultsOpenApi = {
  paths: {
    '/v1/cache/lookup': {
      get: {
        summary: 'The newest stored output for an endpoint and URL',
        description:
          'Whatever options it was made with and however old it is (its `created_at` says; outputs are ' +
          'kept `results.retentionDays`, 30 by default); answering it is free. The URL is matched exactly as it ' +
          'was requested. Every endpoint whose calls are keyed by one URL is served; for `search` the `url` ' +
          'parameter is the search query. Batches, lead batches and audience exports have no one URL: read them by ' +
          'run (GET /v1/results/run/{usage_log_id}) or id.',
        parameters: [
          { name: 'endpoint', in: 'query', schema: { type: 'string', enum: [...LOOKUP_ENDPOINTS], default: 'scrape' } },
          {
            name: 'url',
            in: 'query',
            required: true,
            schema: { type: 'string' },
            description: 'The URL as requested; for ' + '`search`, the query.',
          },
        ],
        responses: {
          200: jsonBody(schemaRef('StoredResult'), 'The output'),
          400: errorBody(
            `\`Missing required field: url\`, or \`Invalid field endpoint: endpoint must be one of: ${LOOKUP_ENDPOINTS.join(', ')}\``,
          ),
          ...unauthorized,
          404: errorBody('Nothing stored for this ' + 'endpoint and URL in the workspace'),
        },
      },
    },
    '/v1/results': {
      get: {
        summary: "The workspace's stored results, newest first",
        description: 'Without their outputs (GET /v1/results/{id} has them).',
        parameters: [{ name: 'endpoint', in: 'query', schema: { type: 'string' } }, ...paging],
        responses: {
          200: jsonBody(
            pagedBody('results', {
              type: 'object',
              properties: {
                id: { type: 'string' },
                endpoint: { type: 'string' },
                url: { type: 'string' },
                created_at: dateTime('When it was produced'),
              },
            }),
            'A slice of results',
          ),
          400: errorBody(PAGING_ERROR),
          ...unauthorized,
        },
      },
    },
    '/v1/results/{id}': {
      get: {
        summary: 'One stored result',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: jsonBody(schemaRef('StoredResult'), 'The result'),
          ...unauthorized,
          404: errorBody("Unknown id, or another workspace's"),
        },
      },
    },
    '/v1/results/run/{usage_log_id}': {
      get: {
        summary: 'The output of one billed call',
        description:
          "`usage_log_id` is the call's `X-Usage-Id` header (or a run id of GET /v1/usage). The answer " +
          'is the stored result with the run: `{…result, run: {id, endpoint, credits, status, created_at, ' +
          'run_id?}}` (`run_id`: the crawl, batch or lead batch the call started). Every succeeded billed call ' +
          'stores its answer, kept `results.retentionDays`; a failed call, an answer larger than ' +
          '`results.maxOutputBytes` (5 MiB by default: answered in full, not stored), a scrape with ' +
          '`store_in_cache: false`, or a server with the results sink disabled stores none, and answers 404 saying ' +
          'so.',
        parameters: [{ name: 'usage_log_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          200: jsonBody({ allOf: [schemaRef('StoredResult'), { type: 'object', properties: { run: { type: 'object' } } }] }, 'The output'),
          ...unauthorized,
          404: errorBody('Unknown run, another ' + "workspace's, or a run without a stored result"),
        },
      },
    },
  },
  schemas: { StoredResult: resultSchema },
};
