/** The OpenAPI of POST /v1/endpoints: the request from the zod schema that validates it, and the endpoints found. */
import { MAX_BUNDLES, endpointsRequestSchema } from '../../../core/features/endpoints/request.ts';
import { errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';

export const endpointsOpenApi = {
  paths: {
    '/v1/endpoints': {
      post: {
        summary: 'Discover endpoints in page JavaScript',
        description:
          'Static analysis: results may be unused, incomplete or need authentication, and URLs built at run time ' +
          'may be missed. The page is read through one scrape; its inline scripts are scanned, and the first ' +
          `\`max_bundles\` (at most ${MAX_BUNDLES}) linked bundles (\`<script src>\`, module and script preloads, ` +
          'in page order) are fetched (each up to `endpoints.maxBundleBytes`) and scanned, with the source maps ' +
          'the first of them name (`endpoints.maxSourceMaps`; library files inside a map are left out). Scanners ' +
          '(`scanner` plugins): a JavaScript syntax-tree scanner (fetch, XHR `open`, axios/ky/jQuery/HttpClient ' +
          'calls, `new WebSocket`, `EventSource`, `sendBeacon`, GraphQL clients, `url`-like options, string and ' +
          'template literals; an error-tolerant parse for code with syntax errors), the source-map scanner and a ' +
          'string scanner for scripts no parser reads. Values: query strings and fragments dropped, run-time parts ' +
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the prose shows a template literal as pages write it
          'written `{name}` (`/api/users/{id}`), a run-time base dropped (`${origin}/api/x` → `/api/x`). Values in ' +
          'request calls are kept; other strings only when they look like an API (an `api`, `graphql`, `rest`, ' +
          '`v2` … path segment, a `.json`/`.php`-like file, an `api.` host). Static assets (images, fonts, styles, ' +
          'media, scripts) are never endpoints. `kind`: `web_socket` for ws(s) URLs and WebSocket targets, ' +
          '`graph_ql` for GraphQL clients and `graphql`/`gql` paths, else `absolute_url` or `relative_path`. ' +
          '`first_party`: same registrable domain as the page (relative paths are). One entry per value, with the ' +
          "first source that names it. `hosts`: the distinct hosts of the endpoints listed (the page's for " +
          'relative paths). `warnings` names what was not read (a bundle that failed or was cut at the size cap, a ' +
          'map too large). Limits: `[endpoints]` in the configuration (30 s per request, 10 s per parsed source, ' +
          '5,000 endpoints).',
        requestBody: { required: true, content: { 'application/json': { schema: toJson(endpointsRequestSchema) } } },
        responses: {
          200: jsonBody(schemaRef('EndpointsResult'), 'The endpoints found'),
          400: errorBody(
            `Invalid request, e.g. \`Missing required field: url\`, \`Invalid field max_bundles: …\` (more than ${MAX_BUNDLES})`,
          ),
          401: errorBody('Invalid or missing API key'),
          402: errorBody('Cloud mode: not enough credits (1 per call)'),
          422: errorBody(
            'The page could not be fetched or read (`Failed to fetch URL: <reason>`), or scanning a ' + 'source passed its time limit',
          ),
        },
      },
    },
  },
  schemas: {
    EndpointsResult: {
      type: 'object',
      required: ['url', 'bundles_scanned', 'endpoint_count', 'endpoints', 'hosts', 'truncated'],
      properties: {
        url: { type: 'string', description: 'The analysed page (after redirects).' },
        bundles_scanned: {
          type: 'integer',
          description: 'Bundles fetched and scanned; inline JavaScript is ' + 'always scanned in addition.',
        },
        endpoint_count: { type: 'integer' },
        endpoints: {
          type: 'array',
          items: {
            type: 'object',
            required: ['value', 'kind', 'first_party', 'source'],
            properties: {
              value: { type: 'string', description: 'A path, full URL, GraphQL URL or WebSocket URL.' },
              kind: { type: 'string', enum: ['relative_path', 'absolute_url', 'graph_ql', 'web_socket'] },
              first_party: { type: 'boolean', description: 'Same registrable domain as the page.' },
              source: { type: 'string', description: "The bundle's file name, or `inline`." },
            },
          },
        },
        hosts: { type: 'array', items: { type: 'string' }, description: 'Distinct host names of the endpoints listed.' },
        truncated: {
          type: 'boolean',
          description: 'More bundles were linked than `max_bundles`; false does not ' + 'prove everything was inspected.',
        },
        warnings: {
          type: 'array',
          items: { type: 'string' },
          description: 'Present when a bundle or source map ' + 'was not (completely) read.',
        },
      },
    },
  },
};
