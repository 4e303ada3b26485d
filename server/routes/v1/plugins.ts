/** GET /v1/plugins: every built-in plugin, whether it is enabled, and its options as JSON Schema. */
import { defineRoutes } from '../../route.ts';
import { pluginsOpenApi } from '../../wire/v1/plugins.docs.ts';

export const pluginsModule = defineRoutes({
  name: 'plugins',
  needs: {},
  routes: (_, { registry }) => [{ method: 'GET', path: '/v1/plugins', handle: () => ({ plugins: registry.describe() }) }],
  openapi: () => pluginsOpenApi,
});
