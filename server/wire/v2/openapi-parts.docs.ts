/**
 * The building blocks of the /v2 routes' OpenAPI (openapi.docs.ts, runs.docs.ts): the tag that keeps
 * Firecrawl's shapes apart from Trawl's own API, one operation with its `V2Error` answers, the run
 * id parameter and the sentence every /v2 operation starts with.
 */
import { jsonBody, schemaRef } from '../../openapi-shapes.ts';

export const V2_TAG = 'Firecrawl v2 compatibility';
export const tags = [
  {
    name: V2_TAG,
    description:
      "Firecrawl's v2 API shapes over Trawl's features: point a Firecrawl SDK's `apiUrl` at this " +
      'server. Its own envelope (`{success, data}`, errors `{success: false, error, code, details?}`) and ' +
      'camelCase fields; never a translation through /v1.',
  },
];

const error = (description: string) => jsonBody(schemaRef('V2Error'), description);
export const str = (description: string) => ({ type: 'string', description });
export const operation = (summary: string, description: string, request: string | null, ok: unknown, errors: Record<number, string>) => ({
  tags: [V2_TAG],
  summary,
  description,
  ...(request ? { requestBody: { required: true, content: { 'application/json': { schema: schemaRef(request) } } } } : {}),
  responses: {
    200: jsonBody(ok, 'Success'),
    ...Object.fromEntries(Object.entries({ 401: 'Invalid or missing API key', ...errors }).map(([status, text]) => [status, error(text)])),
  },
});
export const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
export const withId = <T extends object>(op: T) => ({ ...op, parameters: [jobId] });

export const SHARED =
  "Firecrawl v2 request and response shapes, so Firecrawl's SDKs work with `apiUrl` set to this server. Same " +
  'bearer keys and workspaces as /v1. Options this server does not carry out are accepted and named in `warning`. ' +
  'Errors are `{success: false, error, code, details?}`.';
