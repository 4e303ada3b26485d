/**
 * POST /v1/diff: a page now against `previous` (earlier markdown or text) or the workspace's last
 * stored scrape of the URL (core/features/diff). Costs one `diff` in cloud mode.
 */
import { z } from 'zod';
import { DiffTokens } from '../../../core/features/diff/index.ts';
import { MAX_CONTENT_CHARS } from '../../../core/features/diff/page.ts';
import { httpUrl } from '../../../core/model/request.ts';
import { dateTime, errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { defineRoutes, route } from '../../route.ts';
import { diffBodySchema, diffCounts, normalisedDescription, presentComparison } from './watch-openapi.ts';

export const diffRequestSchema = z.strictObject({
  url: httpUrl.describe('The page to compare.'),
  previous: z.string().max(MAX_CONTENT_CHARS, `must be at most ${MAX_CONTENT_CHARS} characters`).optional()
    .describe('An earlier version (markdown or plain text). Without it the workspace\'s last stored scrape of `url` is the previous version.'),
});

const diffOpenApi = {
  paths: {
    '/v1/diff': {
      post: {
        summary: 'What changed on a page',
        description: 'Scrapes `url` afresh (main content, cache bypassed) and compares it with `previous` or, when absent, with the workspace\'s newest stored ' +
          'scrape of the URL (any earlier /v1/scrape, /v1/diff, crawl page). `status` is `new` when there is nothing to compare with. The fresh scrape is ' +
          `stored, so calling again compares with it. ${normalisedDescription}`,
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
        previous_scraped_at: dateTime('When the stored previous version was scraped; null when `previous` was sent or there was none.', true),
        diff: diffBodySchema,
        ...diffCounts,
      },
    },
  },
};

export const diffModule = defineRoutes({
  name: 'diff',
  needs: { diff: DiffTokens.Service },
  routes: ({ diff }) => [route<z.output<typeof diffRequestSchema>>({
    method: 'POST',
    path: '/v1/diff',
    body: 'manual',
    input: diffRequestSchema,
    meter: { endpoint: 'diff', units: () => ({ diff: 1 }), url: (body) => body.url },
    async handle({ request, workspace, body }) {
      const outcome = await diff.diff(workspace, body, request.signal);
      return { url: outcome.url, status: outcome.status, previous_scraped_at: outcome.previousScrapedAt, ...presentComparison(outcome.comparison) };
    },
  })],
  openapi: () => diffOpenApi,
});
