/** The OpenAPI of GET /v1/usage: its query, the totals by endpoint and by day, and the UsageRun record. */
import { MAX_RANGE_DAYS } from './usage.ts';
import { dateTime, errorBody, jsonBody, pageFields, paging, PAGING_ERROR } from '../../openapi-shapes.ts';

const counts = { runs: { type: 'integer' }, credits: { type: 'integer' } };
const runSchema = {
  type: 'object',
  properties: {
    id: {
      type: 'string',
      description: 'The usage-log id (the `X-Usage-Id` header of the call); GET ' + '/v1/results/run/{id} returns its output.',
    },
    endpoint: { type: 'string' },
    url: { type: ['string', 'null'] },
    credits: { type: 'integer', description: "What the call cost; a crawl's or batch's grows as its pages are scraped." },
    status: {
      enum: ['succeeded', 'failed', 'running'],
      description: '`failed` calls were refunded; `running`: a ' + 'run whose pages were charged before its call was recorded.',
    },
    error: { type: ['string', 'null'] },
    duration_ms: { type: 'integer' },
    result_id: { type: ['string', 'null'], description: 'The stored result (GET /v1/results/{id}).' },
    run_id: { type: ['string', 'null'], description: 'The crawl or batch the call started.' },
    created_at: dateTime('When the call started'),
    finished_at: dateTime('When the call ended', true),
  },
};

export const usageOpenApi = {
  paths: {
    '/v1/usage': {
      get: {
        summary: 'Balance, plan and usage of the workspace',
        description:
          'Totals over `from` (inclusive) to `to` (exclusive), by endpoint and by UTC day, and the runs ' +
          `of that range newest first. Default range: the last 30 days; at most ${MAX_RANGE_DAYS} days. ` +
          '`endpoint` narrows totals and runs to one endpoint.',
        parameters: [
          { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'endpoint', in: 'query', schema: { type: 'string' } },
          ...paging,
        ],
        responses: {
          200: jsonBody(
            {
              type: 'object',
              properties: {
                workspace: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
                plan: { type: 'string' },
                status: { type: 'string' },
                balance: { type: 'integer' },
                rate_limit_per_minute: { type: 'integer' },
                from: dateTime('Start of the range'),
                to: dateTime('End of the range'),
                totals: {
                  type: 'object',
                  properties: {
                    ...counts,
                    by_endpoint: { type: 'array', items: { type: 'object', properties: { endpoint: { type: 'string' }, ...counts } } },
                    by_day: {
                      type: 'array',
                      items: { type: 'object', properties: { day: { type: 'string', format: 'date' }, ...counts } },
                    },
                    by_day_endpoint: {
                      type: 'array',
                      description: "Each day's counts per endpoint, by day " + 'then endpoint.',
                      items: {
                        type: 'object',
                        properties: { day: { type: 'string', format: 'date' }, endpoint: { type: 'string' }, ...counts },
                      },
                    },
                  },
                },
                runs: { type: 'array', items: runSchema },
                ...pageFields,
              },
            },
            'Usage',
          ),
          400: errorBody(`Invalid from or to; ${PAGING_ERROR}`),
          401: errorBody('Invalid or missing API key'),
          403: errorBody('A member key: billing needs an admin key'),
        },
      },
    },
  },
};
