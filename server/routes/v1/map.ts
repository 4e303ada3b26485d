/**
 * POST /v1/map: the URLs of a site from its sitemaps, feeds and start page, without scraping the
 * pages (core/features/map). The start page is one scrape in the caller's workspace; the answer is
 * stored as a result (endpoint `map`) whose id it carries and the usage row names.
 */
import { MapTokens } from '../../../core/features/map/index.ts';
import { mapRequestSchema, type MapRequest } from '../../../core/features/map/map.ts';
import type { StoredMap } from '../../../core/features/map/store.ts';
import { defineRoutes, route } from '../../route.ts';
import { mapOpenApi } from '../../wire/v1/map.docs.ts';

export const mapModule = defineRoutes({
  name: 'map',
  needs: { map: MapTokens.Service },
  routes: ({ map }) => [
    route<MapRequest>({
      method: 'POST',
      path: '/v1/map',
      input: mapRequestSchema,
      meter: { endpoint: 'map', units: () => ({ map: 1 }), url: (body) => body.url },
      async handle({ request, workspace, body, usage }) {
        const { id, links, warnings }: StoredMap = await map(body, workspace, request.signal);
        if (id) usage.resultId = id;
        return Response.json({ ...(id ? { id } : {}), links, ...(warnings ? { warnings } : {}) });
      },
    }),
  ],
  openapi: () => mapOpenApi,
});
