/**
 * The OpenAPI 3.1 document served at /openapi.json: the frame (info, security, the error envelope)
 * plus every route module's part, in list order. Request schemas come from the same zod schemas
 * that validate requests, so the document cannot drift from the code on inputs. In cloud mode the
 * answers the route runner adds (server/route-runner.ts) are written into each operation from the
 * routes' own declarations: 402 and the credit headers where a route is metered, 403 where it is
 * paid or metered, 429 and the rate-limit headers on every authenticated route. The paging
 * parameters are shared components, every route that refuses unknown query parameters has a 400,
 * and every one with an id in its path says a malformed id is a 404.
 */
import { pagingParameters } from './openapi-shapes.ts';
import { checksIds, MALFORMED_ID, refusesUnknownQuery } from './query.ts';
import type { OpenApiPart, Route, RouteEnv } from './route.ts';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    code: {
      type: 'string',
      enum: ['blocked'],
      description:
        'Only on a blocked page (422): the target answered ' +
        'with an anti-bot interstitial, a block page or a CAPTCHA wall instead of the page.',
    },
    vendor: {
      type: 'string',
      description:
        'Blocked pages: who blocked it, in lower case (cloudflare, akamai, ' + 'datadome, perimeterx, recaptcha, hcaptcha, turnstile, …).',
    },
    kind: {
      type: 'string',
      enum: ['challenge', 'block', 'captcha'],
      description: 'Blocked pages: a challenge a ' + 'browser may pass, an outright block, or a CAPTCHA to solve.',
    },
    status_code: { type: 'integer', description: 'Blocked pages: the HTTP status the block came with.' },
    retry_after_seconds: {
      type: 'integer',
      description:
        'Blocked pages that are rate limits: the Retry-After they ' + "came with, in seconds (also the answer's Retry-After header).",
    },
    attempts: {
      type: 'array',
      items: { type: 'string' },
      description: 'Blocked pages with `proxy: "auto"`: each ' + 'route tried and how it ended.',
    },
  },
};
const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const creditHeaders = {
  'X-Credits-Used': integerHeader('Credits this call cost (0 when it was refunded or refused).'),
  'X-Credits-Remaining': integerHeader(
    "The workspace's balance after this call, as the answering API process " +
      'knows it: exact with one API process; with several, what the others spent since its last charge is not in it ' +
      'yet.',
  ),
};
const rateHeaders = {
  'X-RateLimit-Limit': integerHeader('Requests per minute allowed for the workspace.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current minute.'),
  'X-RateLimit-Reset': integerHeader('When the current minute ends, in seconds since the epoch.'),
};

const DESCRIPTION =
  'Web content extraction. Authenticate with `Authorization: Bearer <key>` when the server was started with an API ' +
  'key; without one every request is allowed. Errors are `{"error": "<message>"}`: 400 invalid input (the message ' +
  'names the field; a query parameter an operation does not list is `Unknown query parameter: <name>`, like an ' +
  'unknown body field; text holding U+0000 in a body field, a query parameter or a path is `Invalid field <name>: ' +
  "contains a NUL character` or the query parameter's like it), 401 bad key, 404 unknown path or id (a malformed " +
  'id too, before any lookup), 413 body over the limit, 422 the target could not be fetched or processed (`Failed ' +
  "to fetch URL: <reason>`) or a language model's answer stayed invalid, 500 internal, 502 a configured provider " +
  '(search, language model) failed, 503 none is configured, one is rate limited (with `Retry-After`) or the server ' +
  "is busy, 504 a language model did not answer in time. Every answer carries `X-Request-Id`: the request's own " +
  "when it sent one of 1–128 visible ASCII characters, else a generated one; the server's log lines for the " +
  'request and the jobs and webhook deliveries it started carry it too. Lists page one way: `limit` (1–100, ' +
  'default 20) and `offset` (default 0), or the alias `page` and `per_page` (not both styles at once); every list ' +
  "answer carries `total`, `limit`, `offset`, the alias's `page` and `per_page`, and `next`, the path of the " +
  'following slice, only while items remain.';

const CLOUD_DESCRIPTION =
  " Cloud mode: keys are `trawl_` followed by 43 URL-safe characters, made by the workspace's operator. " +
  'Metered calls are charged in credits before any work (402 `Insufficient credits` when the balance cannot ' +
  'pay, nothing is done), refunded when they fail, and answer with `X-Credits-Used`, `X-Credits-Remaining` ' +
  'and `X-Usage-Id` (the usage-log row, see GET /v1/results/run/{usage_log_id}). Crawl and batch pages are ' +
  'charged as they are scraped; a run whose workspace runs out of credits stops with status `failed` and ' +
  'error `Insufficient credits: …`, keeping the pages it has. Free and lapsed workspaces get 403 `… requires ' +
  'a paid plan` on paid features; a lapsed workspace may read (results, usage, runs) but not start billable ' +
  "work (403 `This workspace's plan has lapsed: …`, watches and their checks included); its watches' and " +
  "monitors' scheduled checks are skipped uncharged, with `last_error` saying so, and run again once the " +
  'workspace is active. Every workspace has a per-minute rate limit by plan: 429 with `Retry-After` past it; ' +
  '`X-RateLimit-*` headers on every answer.';

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** Adds the runner's answers to the operations of `routes`. */
function addCloudAnswers(paths: Record<string, any>, routes: readonly Route[]): void {
  for (const route of routes) {
    const operation = paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    // The admin API and self-authenticated public routes (the watch feed) are neither rate-limited nor metered.
    if (!operation || route.path.startsWith('/admin') || route.public) continue;
    const responses = (operation.responses ??= {});
    responses[429] ??= {
      ...error('Rate limit exceeded: `Rate limit exceeded: <n> requests per minute; retry after ' + '<s> s`'),
      headers: { 'Retry-After': integerHeader('Seconds until the next minute starts.'), ...rateHeaders },
    };
    if (route.paid)
      responses[403] ??= error(
        `\`${route.paid} requires a paid plan\` on the free plan; \`This ` +
          "workspace's plan has lapsed: … requires a paid plan` when the plan has lapsed",
      );
    if (route.billable)
      responses[403] ??= error(
        "The workspace's plan has lapsed: `This workspace's plan has " +
          'lapsed: … requires a paid plan`; the checks this call would start are not run',
      );
    if (!route.meter) continue;
    responses[402] ??= {
      ...error('`Insufficient credits`: the balance cannot pay for this call; nothing was ' + 'done'),
      headers: creditHeaders,
    };
    responses[403] ??= error("The workspace's plan has lapsed: `… requires a paid plan`");
    for (const [status, response] of Object.entries(responses) as Array<[string, any]>) {
      if (status.startsWith('2'))
        response.headers = {
          ...response.headers,
          ...creditHeaders,
          'X-Usage-Id': { description: "The call's usage-log row.", schema: { type: 'string' } },
          ...rateHeaders,
        };
    }
  }
}

/**
 * Every operation that refuses unknown query parameters (server/query.ts) says so, unless it
 * documents its 400 already; one with an id in its path says a malformed id is its 404 too.
 */
function addQueryAnswers(paths: Record<string, any>, routes: readonly Route[]): void {
  for (const route of routes) {
    const operation = paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    if (!operation || !refusesUnknownQuery(route.path)) continue;
    const responses = (operation.responses ??= {});
    responses[400] ??= error('`Unknown query parameter: <name>`: a query parameter this operation does not take');
    if (!checksIds(route.path)) continue;
    const known = responses[404]?.description as string | undefined;
    if (!known?.includes(MALFORMED_ID))
      responses[404] = error(known ? `${known}. ${MALFORMED_ID}` : `Unknown id (or another workspace's). ${MALFORMED_ID}`);
  }
}

/**
 * Trawl's own operations are grouped by endpoint family, named by the path's family segment
 * (`/v1/crawl/{id}` → Crawl), so the reference reads as a table of contents; a module that tags
 * its operations itself (the /v2 wire format) keeps its tags. In this order, then any other.
 */
const FAMILIES: Array<[segment: string, name: string, description: string]> = [
  ['scrape', 'Scrape', 'One page (HTML, rendered app, PDF, office documents) in the formats asked for.'],
  ['crawl', 'Crawl', 'A site followed link by link as a background job, with progress, streams and retries.'],
  ['batch', 'Batch', 'Many URLs scraped as one background job.'],
  ['map', 'Map', "A site's URLs from its sitemaps, feeds and start page, without scraping them."],
  ['search', 'Search', 'Web search through the configured providers, each result page scraped.'],
  ['extract', 'Extract', 'Structured data from a page with a language model, by JSON Schema or prompt.'],
  ['summarize', 'Summarize', "A page's summary, by a language model or by its most central sentences."],
  ['lead', 'Lead', "Company details and contacts from a company's site."],
  ['brand', 'Brand', "A site's brand profile: name, logo, colours, fonts."],
  ['endpoints', 'Endpoints', "Request targets named in a page's JavaScript."],
  ['diff', 'Diff', 'What changed on a page since a given or stored version.'],
  ['watch', 'Watch', 'Pages checked on a schedule, with their snapshots and diffs.'],
  ['social', 'Social', 'Social feed monitors and audience export (beta).'],
  ['webhooks', 'Webhooks', 'Endpoints that receive signed event deliveries.'],
  ['results', 'Results', 'Stored outputs and the response cache (cloud mode).'],
  ['usage', 'Usage', "The workspace's usage log and credits (cloud mode)."],
  ['account', 'Account', "The workspace's own account and its API keys with their roles."],
  ['plugins', 'Plugins', 'The plugins this server runs and their options.'],
  ['service', 'Service', "The service's entry point, health, metrics and the Model Context Protocol endpoint."],
  ['admin', 'Admin', 'Workspaces, keys and credits, with the admin key.'],
];
/** Path segments that belong to another family. */
const SEGMENT_FAMILY: Record<string, string> = {
  '': 'service',
  cache: 'results',
  health: 'service',
  metrics: 'service',
  mcp: 'service',
  keys: 'account',
};

function familyTag(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const segment = segments[0] === 'v1' ? (segments[1] ?? 'v1') : (segments[0] ?? '');
  const family = SEGMENT_FAMILY[segment] ?? segment;
  return FAMILIES.find(([known]) => known === family)?.[1] ?? family.charAt(0).toUpperCase() + family.slice(1);
}

/** Tags the untagged operations by family; answers the tags used, in the families' order. */
function tagByFamily(paths: Record<string, any>): Array<{ name: string; description?: string }> {
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item as Record<string, any>)) {
      if (!operation || typeof operation !== 'object' || operation.tags) continue;
      operation.tags = [familyTag(path)];
      used.add(operation.tags[0]);
    }
  }
  const known = FAMILIES.filter(([, name]) => used.has(name)).map(([, name, description]) => ({ name, description }));
  return [...known, ...[...used].filter((name) => !known.some((tag) => tag.name === name)).map((name) => ({ name }))];
}

export function buildOpenApi(env: RouteEnv, parts: readonly OpenApiPart[], routes: readonly Route[] = []) {
  const merge = (key: 'paths' | 'schemas' | 'webhooks') =>
    Object.assign({}, ...parts.map((part) => part[key] ?? {})) as Record<string, unknown>;
  const cloud = env.config.mode === 'cloud';
  const paths = structuredClone(merge('paths')) as Record<string, any>;
  addQueryAnswers(paths, routes);
  if (cloud) addCloudAnswers(paths, routes);
  const tags = [...tagByFamily(paths), ...new Map(parts.flatMap((part) => part.tags ?? []).map((tag) => [tag.name, tag])).values()];
  return {
    openapi: '3.1.0',
    info: { title: 'Trawl', version: env.version, description: DESCRIPTION + (cloud ? CLOUD_DESCRIPTION : '') },
    tags,
    security: cloud || env.config.apiKey ? [{ bearer: [] }] : [],
    paths,
    webhooks: merge('webhooks'),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      parameters: pagingParameters,
      schemas: { ...merge('schemas'), Error: errorSchema },
    },
  };
}
