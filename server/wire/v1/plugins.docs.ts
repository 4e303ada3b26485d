/** The OpenAPI of GET /v1/plugins. */
import { errorBody, jsonBody } from '../../openapi-shapes.ts';

export const pluginsOpenApi = {
  paths: {
    '/v1/plugins': {
      get: {
        summary: 'List plugins',
        responses: {
          200: jsonBody(
            { type: 'object', properties: { plugins: { type: 'array', items: { type: 'object' } } } },
            'Every built-in plugin with ' + 'kind, enabled flag, description and options as JSON Schema',
          ),
          401: errorBody('Invalid or missing API key'),
        },
      },
    },
  },
};
