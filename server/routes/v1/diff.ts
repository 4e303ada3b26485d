/**
 * POST /v1/diff: a page now against `previous` (earlier markdown or text) or the workspace's last
 * stored scrape of the URL (core/features/diff). Costs one `diff` in cloud mode.
 */
import type { z } from 'zod';
import { DiffTokens } from '../../../core/features/diff/index.ts';
import { defineRoutes, route } from '../../route.ts';
import { diffRequestSchema, presentComparison } from '../../wire/v1/diff.ts';
import { diffOpenApi } from '../../wire/v1/diff.docs.ts';

export const diffModule = defineRoutes({
  name: 'diff',
  needs: { diff: DiffTokens.Service },
  routes: ({ diff }) => [
    route<z.output<typeof diffRequestSchema>>({
      method: 'POST',
      path: '/v1/diff',
      input: diffRequestSchema,
      meter: { endpoint: 'diff', units: () => ({ diff: 1 }), url: (body) => body.url },
      async handle({ request, workspace, body }) {
        const outcome = await diff.diff(workspace, body, request.signal);
        return {
          url: outcome.url,
          status: outcome.status,
          previous_scraped_at: outcome.previousScrapedAt,
          ...presentComparison(outcome.comparison),
        };
      },
    }),
  ],
  openapi: () => diffOpenApi,
});
