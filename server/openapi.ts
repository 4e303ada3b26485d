/**
 * The OpenAPI 3.1 document served at /openapi.json: the frame (info, security, the error envelope)
 * plus every route module's part, in list order. Request schemas come from the same zod schemas
 * that validate requests, so the document cannot drift from the code on inputs.
 */
import type { OpenApiPart, RouteEnv } from './route.ts';

const errorSchema = { type: 'object', required: ['error'], properties: { error: { type: 'string' } } };

export function buildOpenApi(env: RouteEnv, parts: readonly OpenApiPart[]) {
  const merge = (key: keyof OpenApiPart) => Object.assign({}, ...parts.map((part) => part[key] ?? {})) as Record<string, unknown>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trawl',
      version: env.version,
      description:
        'Web content extraction. Authenticate with `Authorization: Bearer <key>` when the server was started with an API key; ' +
        'without one every request is allowed. Errors are `{"error": "<message>"}`: 400 invalid input (the message names the field), ' +
        '401 bad key, 404 unknown path or id, 413 body over the limit, 422 the target could not be fetched or processed ' +
        '(`Failed to fetch URL: <reason>`) or a language model\'s answer stayed invalid, 500 internal, 502 a configured provider (search, ' +
        'language model) failed, 503 none is configured, one is rate limited (with `Retry-After`) or the server is busy, 504 a language model did not answer in time.',
    },
    security: env.config.apiKey ? [{ bearer: [] }] : [],
    paths: merge('paths'),
    webhooks: merge('webhooks'),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ...merge('schemas'), Error: errorSchema },
    },
  };
}
