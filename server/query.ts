/**
 * A route's query string, read once by the route runner for every route: under /v1 and /admin a
 * parameter the route does not declare is refused like an unknown body field, so a misspelt
 * `limt=5` is a 400 instead of a silently ignored filter, and a new route cannot forget the check.
 * Other wire formats (/v2 keeps Firecrawl's rules) and the public paths keep ignoring what they do
 * not read.
 */
import { badRequest } from '../core/errors.ts';
import { parseOrThrow } from '../core/validation.ts';
import type { Route } from './route.ts';

const STRICT_PREFIXES = ['/v1/', '/admin/'];

/** Whether the route refuses query parameters it does not declare. */
export const refusesUnknownQuery = (path: string) => STRICT_PREFIXES.some((prefix) => path.startsWith(prefix));

/** The route's validated query (its `query` schema's output); without one, the raw parameters. */
export function readQuery(route: Route, request: Request): unknown {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  if (refusesUnknownQuery(route.path)) {
    const accepted = route.query?.shape ?? {};
    const unknown = Object.keys(params).filter((name) => !Object.hasOwn(accepted, name));
    if (unknown.length > 0) throw badRequest(`Unknown query parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
  return route.query ? parseOrThrow(route.query, params) : params;
}
