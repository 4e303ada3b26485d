/**
 * A route's query string and path parameters, read once by the route runner for every route.
 *
 * Under /v1 and /admin a query parameter the route does not declare is refused like an unknown body
 * field, so a misspelt `limt=5` is a 400 instead of a silently ignored filter, and a new route
 * cannot forget the check. Other wire formats (/v2 keeps Firecrawl's rules) and the public paths
 * keep ignoring what they do not read.
 *
 * Text holding U+0000 never reaches a store (Postgres refuses it, SQLite would keep it): a query
 * parameter holding it is a 400 naming the parameter, on every route. Under /v1 and /admin an id in
 * the path (`:id`, `:…_id`) must have the form ids are made in — a UUID; a workspace's id may also
 * be a short name (`default`, `team-a`) — and anything else answers the 404 an unknown id gets,
 * before any query.
 */
import { badRequest, TrawlError } from '../core/errors.ts';
import { parseOrThrow } from '../core/validation.ts';
import type { Route } from './route.ts';

const STRICT_PREFIXES = ['/v1/', '/admin/'];

/** Whether the route refuses query parameters it does not declare. */
export const refusesUnknownQuery = (path: string) => STRICT_PREFIXES.some((prefix) => path.startsWith(prefix));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WORKSPACE_ID = /^[\w.-]{1,64}$/;

/**
 * What an id in a path names, by the route's path (the first match wins), and whether the 404 shows
 * the id: the same message the route's own lookup gives an unknown one.
 */
const ID_NAMES: Array<[prefix: string, name: string, showsId: boolean]> = [
  ['/v1/watch/', 'Watch', false],
  ['/v1/crawl/', 'Crawl', true],
  ['/v1/batch/', 'Batch', true],
  ['/v1/webhooks/', 'Webhook', false],
  ['/v1/social/monitors/', 'Monitor', false],
  ['/v1/lead/batch/', 'Lead batch', true],
  ['/v1/results/run/', 'Run', true],
  ['/v1/results/', 'Result', true],
  ['/v1/keys/', 'Key', true],
  ['/admin/keys/', 'Key', true],
  ['/admin/workspaces/', 'Workspace', true],
];

/** `Crawl not found: <id>` (the first 64 characters, control characters written out) or `Watch not found`. */
function unknownId(path: string, id: string): TrawlError {
  const [, name = 'Resource', showsId = false] = ID_NAMES.find(([prefix]) => path.startsWith(prefix)) ?? [];
  const shown = id.slice(0, 64).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return new TrawlError('not_found', showsId ? `${name} not found: ${shown}` : `${name} not found`);
}

const isIdParam = (name: string) => name === 'id' || name.endsWith('_id');

/** Whether the route checks an id in its path (its OpenAPI 404 says how, server/openapi.ts). */
export const checksIds = (path: string) => refusesUnknownQuery(path) && [...path.matchAll(/:(\w+)/g)].some(([, name]) => isIdParam(name!));

/** What the OpenAPI document says of a malformed id, on every operation that checks one. */
export const MALFORMED_ID =
  'A malformed id (not a UUID; a workspace id may also be a name of letters, digits, `.`, `_` and `-`, up to 64) answers this 404 too, before any lookup.';

/** 404 for an id that cannot be one (`Watch not found`), 400 for any other parameter holding NUL. */
export function checkParams(route: Route, params: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (refusesUnknownQuery(route.path) && isIdParam(name)) {
      const workspace = route.path.startsWith('/admin/workspaces/');
      if (!(UUID.test(value) || (workspace && WORKSPACE_ID.test(value)))) throw unknownId(route.path, value);
    } else if (value.includes('\0')) {
      throw badRequest(`Invalid path parameter ${name}: contains a NUL character`);
    }
  }
}

/** The route's validated query (its `query` schema's output); without one, the raw parameters. */
export function readQuery(route: Route, request: Request): unknown {
  const { searchParams } = new URL(request.url);
  // Every pair, not the map below: a repeated name keeps only its last value there.
  for (const [name, value] of searchParams) {
    if (name.includes('\0')) throw badRequest('Invalid query parameter name: contains a NUL character');
    if (value.includes('\0')) throw badRequest(`Invalid query parameter ${name}: contains a NUL character`);
  }
  const params = Object.fromEntries(searchParams);
  if (refusesUnknownQuery(route.path)) {
    const accepted = route.query?.shape ?? {};
    const unknown = Object.keys(params).filter((name) => !Object.hasOwn(accepted, name));
    if (unknown.length > 0) throw badRequest(`Unknown query parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
  return route.query ? parseOrThrow(route.query, params) : params;
}
