/**
 * POST /v1/endpoints: candidate request targets read from a page's JavaScript by static analysis
 * (core/features/endpoints and the `scanner` plugins). The page is one scrape in the caller's
 * workspace; cloud mode charges 1 credit per call.
 */
import { EndpointsTokens } from '../../../core/features/endpoints/index.ts';
import { endpointsRequestSchema, type EndpointsRequest } from '../../../core/features/endpoints/request.ts';
import { defineRoutes, route } from '../../route.ts';
import { endpointsOpenApi } from '../../wire/v1/endpoints.docs.ts';

export const endpointsModule = defineRoutes({
  name: 'endpoints',
  needs: { finder: EndpointsTokens.Finder },
  routes: ({ finder }) => [
    route<EndpointsRequest>({
      method: 'POST',
      path: '/v1/endpoints',
      input: endpointsRequestSchema,
      meter: { endpoint: 'endpoints', units: () => ({ endpoints: 1 }), url: (body) => body.url },
      handle: async ({ request, workspace, body }) => Response.json(await finder.find(body, workspace, request.signal)),
    }),
  ],
  openapi: () => endpointsOpenApi,
});
