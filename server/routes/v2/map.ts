/**
 * POST /v2/map: a site's URLs (core/features/map) in Firecrawl's v2 shape, `{id, links: [{url, title?}]}`;
 * the id is the stored result's, named on the usage row as /v1/map's is.
 */
import { MapTokens } from '../../../core/features/map/index.ts';
import { defineRoutes, route } from '../../route.ts';
import { presentMap } from '../../wire/v2/present.ts';
import { v2MapSchema } from '../../wire/v2/request.ts';
import { v2MapOpenApi } from '../../wire/v2/openapi.docs.ts';
import { V2_ERRORS } from './shared.ts';

export const v2MapModule = defineRoutes({
  name: 'v2-map',
  errors: V2_ERRORS,
  needs: { map: MapTokens.Service },
  routes: ({ map }) => [
    route({
      method: 'POST',
      path: '/v2/map',
      input: v2MapSchema,
      meter: { endpoint: 'map', units: () => ({ map: 1 }), url: ({ request }) => request.url },
      async handle({ request, workspace, body, usage }) {
        const result = await map(body.request, workspace, request.signal);
        if (result.id) usage.resultId = result.id;
        return presentMap(result, body.warnings);
      },
    }),
  ],
  openapi: () => v2MapOpenApi,
});
