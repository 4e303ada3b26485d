/** GET /v1/plugins: every built-in plugin, whether it is enabled, and its options as JSON Schema. */
import { errorBody, jsonBody } from '../../openapi-shapes.ts';
import { defineRoutes } from '../../route.ts';

export const pluginsModule = defineRoutes({
  name: 'plugins',
  needs: {},
  routes: (_, { registry }) => [{ method: 'GET', path: '/v1/plugins', handle: () => ({ plugins: registry.describe() }) }],
  openapi: () => ({
    paths: {
      '/v1/plugins': {
        get: { summary: 'List plugins', responses: { 200: jsonBody({ type: 'object', properties: { plugins: { type: 'array', items: { type: 'object' } } } }, 'Every built-in plugin with kind, enabled flag, description and options as JSON Schema'), 401: errorBody('Invalid or missing API key') } },
      },
    },
  }),
});
