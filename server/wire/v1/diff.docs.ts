/** The OpenAPI of POST /v1/diff: the request from the zod schema that validates it, and the DiffResponse record. */
import { dateTime, errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { diffBodySchema, diffCounts, normalisedDescription } from './watch-shapes.docs.ts';
import { diffRequestSchema } from './diff.ts';

export const diffOpenApi = {
  paths: {
    '/v1/diff': {
      post: {
        summary: 'What changed on a page',
        description:
          'Scrapes `url` afresh (main content, cache bypassed) and compares it with `previous` or, when ' +
          "absent, with the workspace's newest stored scrape of the URL (any earlier /v1/scrape, /v1/diff, crawl " +
          'page). `status` is `new` when there is nothing to compare with. The fresh scrape is stored, so calling ' +
          `again compares with it. ${normalisedDescription}`,
        requestBody: { required: true, content: { 'application/json': { schema: toJson(diffRequestSchema) } } },
        responses: {
          200: jsonBody(schemaRef('DiffResponse'), 'The comparison'),
          400: errorBody('`Missing required field: url`, `Invalid field previous: …`'),
          401: errorBody('Invalid or missing API key'),
          422: errorBody('`Failed to fetch URL: <reason>`'),
        },
      },
    },
  },
  schemas: {
    DiffResponse: {
      type: 'object',
      required: ['url', 'status', 'previous_scraped_at', 'diff', 'summary', 'word_count_delta', 'links_added', 'links_removed'],
      properties: {
        url: { type: 'string' },
        status: { type: 'string', enum: ['new', 'same', 'changed'] },
        previous_scraped_at: dateTime(
          'When the stored previous version was scraped; null when `previous` was sent ' + 'or there was none.',
          true,
        ),
        diff: diffBodySchema,
        ...diffCounts,
      },
    },
  },
};
