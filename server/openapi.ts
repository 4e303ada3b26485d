/**
 * The OpenAPI 3.1 document served at /openapi.json: the frame (info, security, the error envelope)
 * plus every route module's part, in list order. Request schemas come from the same zod schemas
 * that validate requests, so the document cannot drift from the code on inputs. In cloud mode the
 * answers the route runner adds (server/metering.ts) are written into each operation from the
 * routes' own declarations: 402 and the credit headers where a route is metered, 403 where it is
 * paid or metered, 429 and the rate-limit headers on every authenticated route.
 */
import type { OpenApiPart, Route, RouteEnv } from './route.ts';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string', enum: ['blocked'], description: 'Only on a blocked page (422): the target answered with an anti-bot interstitial, a block page or a CAPTCHA wall instead of the page.' },
    vendor: { type: 'string', description: 'Blocked pages: who blocked it, in lower case (cloudflare, akamai, datadome, perimeterx, recaptcha, hcaptcha, turnstile, …).' },
    kind: { type: 'string', enum: ['challenge', 'block', 'captcha'], description: 'Blocked pages: a challenge a browser may pass, an outright block, or a CAPTCHA to solve.' },
    status_code: { type: 'integer', description: 'Blocked pages: the HTTP status the block came with.' },
    attempts: { type: 'array', items: { type: 'string' }, description: 'Blocked pages with `proxy: "auto"`: each route tried and how it ended.' },
  },
};
const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const creditHeaders = {
  'X-Credits-Used': integerHeader('Credits this call cost (0 when it was refunded or refused).'),
  'X-Credits-Remaining': integerHeader('The workspace\'s balance after this call, as the answering API process knows it: exact with one API process; with several, what the others spent since its last charge is not in it yet.'),
};
const rateHeaders = {
  'X-RateLimit-Limit': integerHeader('Requests per minute allowed for the workspace.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current minute.'),
  'X-RateLimit-Reset': integerHeader('When the current minute ends, in seconds since the epoch.'),
};

const DESCRIPTION =
  'Web content extraction. Authenticate with `Authorization: Bearer <key>` when the server was started with an API key; ' +
  'without one every request is allowed. Errors are `{"error": "<message>"}`: 400 invalid input (the message names the field), ' +
  '401 bad key, 404 unknown path or id, 413 body over the limit, 422 the target could not be fetched or processed ' +
  '(`Failed to fetch URL: <reason>`) or a language model\'s answer stayed invalid, 500 internal, 502 a configured provider (search, ' +
  'language model) failed, 503 none is configured, one is rate limited (with `Retry-After`) or the server is busy, 504 a language model did not answer in time. ' +
  'Every answer carries `X-Request-Id`: the request\'s own when it sent one of 1–128 visible ASCII characters, else a generated one; the server\'s ' +
  'log lines for the request and the jobs and webhook deliveries it started carry it too.';

const CLOUD_DESCRIPTION =
  ' Cloud mode: keys are `trawl_` followed by 43 URL-safe characters, made by the workspace\'s operator. Metered calls are charged in ' +
  'credits before any work (402 `Insufficient credits` when the balance cannot pay, nothing is done), refunded when they fail, and ' +
  'answer with `X-Credits-Used`, `X-Credits-Remaining` and `X-Usage-Id` (the usage-log row, see GET /v1/results/run/{usage_log_id}). ' +
  'Crawl and batch pages are charged as they are scraped; a run whose workspace runs out of credits stops with status `failed` and ' +
  'error `Insufficient credits: …`, keeping the pages it has. Free and lapsed workspaces get 403 `… requires a paid plan` on paid ' +
  'features; a lapsed workspace may read (results, usage, runs) but not start billable work. Every workspace has a per-minute rate ' +
  'limit by plan: 429 with `Retry-After` past it; `X-RateLimit-*` headers on every answer.';

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Adds the runner's answers to the operations of `routes`. */
function addCloudAnswers(paths: Record<string, any>, routes: readonly Route[]): void {
  for (const route of routes) {
    const operation = paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    if (!operation || route.path.startsWith('/admin')) continue;
    const responses = (operation.responses ??= {});
    responses[429] ??= { ...error('Rate limit exceeded: `Rate limit exceeded: <n> requests per minute; retry after <s> s`'), headers: { 'Retry-After': integerHeader('Seconds until the next minute starts.'), ...rateHeaders } };
    if (route.paid) responses[403] ??= error(`\`${route.paid} requires a paid plan\`: the workspace is on the free plan or its plan has lapsed`);
    if (!route.meter) continue;
    responses[402] ??= { ...error('`Insufficient credits`: the balance cannot pay for this call; nothing was done'), headers: creditHeaders };
    responses[403] ??= error('The workspace\'s plan has lapsed: `… requires a paid plan`');
    for (const [status, response] of Object.entries(responses) as Array<[string, any]>) {
      if (status.startsWith('2')) response.headers = { ...response.headers, ...creditHeaders, 'X-Usage-Id': { description: 'The call\'s usage-log row.', schema: { type: 'string' } }, ...rateHeaders };
    }
  }
}

/** The tag of every operation no module tagged: Trawl's own API. */
const TRAWL_TAG = { name: 'Trawl', description: 'Trawl\'s own API (/v1, /health, the admin API).' };

function tagUntagged(paths: Record<string, any>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item as Record<string, any>)) if (operation && typeof operation === 'object' && !operation.tags) operation.tags = [TRAWL_TAG.name];
  }
}

export function buildOpenApi(env: RouteEnv, parts: readonly OpenApiPart[], routes: readonly Route[] = []) {
  const merge = (key: 'paths' | 'schemas' | 'webhooks') => Object.assign({}, ...parts.map((part) => part[key] ?? {})) as Record<string, unknown>;
  const cloud = env.config.mode === 'cloud';
  const paths = structuredClone(merge('paths')) as Record<string, any>;
  if (cloud) addCloudAnswers(paths, routes);
  tagUntagged(paths);
  const tags = [TRAWL_TAG, ...new Map(parts.flatMap((part) => part.tags ?? []).map((tag) => [tag.name, tag])).values()];
  return {
    openapi: '3.1.0',
    info: { title: 'Trawl', version: env.version, description: DESCRIPTION + (cloud ? CLOUD_DESCRIPTION : '') },
    tags,
    security: cloud || env.config.apiKey ? [{ bearer: [] }] : [],
    paths,
    webhooks: merge('webhooks'),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ...merge('schemas'), Error: errorSchema },
    },
  };
}
