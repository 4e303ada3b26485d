/**
 * What the scanners agree a request target looks like: the option and variable names that hold
 * one, the HTTP methods of an XHR `open`, the client call names, and two tests on a value — loose
 * for a value in a request position (the call already says it is a URL), strict for a string found
 * anywhere (it must read as a URL by itself).
 */

/** `url:`, `baseURL:`, `apiEndpoint`, `graphql_uri`, `wsUrl` …: options and variables that hold a request target. */
export const REQUEST_KEY =
  /^(?:url|uri|endpoint|base_?ur[il]|(?:\w*?(?:api|rest|ajax|graphql|gql|ws|websocket|socket|backend|service|rpc))(?:_?(?:url|uri|base|root|endpoint|host|path))|\w*?endpoint)$/i;

export const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Methods of HTTP clients (axios, ky, Angular's HttpClient, superagent, jQuery) whose first argument is the URL. */
export const CLIENT_METHODS = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'del',
  'head',
  'options',
  'request',
  'getJSON',
  'ajax',
  'fetch',
  'sendBeacon',
]);

/** Functions called with the URL (or options holding it) as the first argument. */
export const CLIENT_FUNCTIONS = new Set(['fetch', 'axios', 'ky', 'ofetch', '$fetch', 'useFetch', 'superagent', 'request', 'ajax']);

const MAX_VALUE_CHARS = 2048;
/** Characters of a path as written in code (placeholders `{x}` included); no spaces, quotes or brackets. */
const PATH_CHARS = /^[\w\-.~%{}:@/+,;=!$*'&?#[\]]+$/;

/** `text/plain`, `application/json;charset=…`: a media type, not a path. */
const MEDIA_TYPE = /^(?:application|text|image|audio|video|multipart|font|model|message)\/[\w.+-]+(?:;|$)/i;

/**
 * A value in a request position: a path, a URL, or a placeholder base followed by a path; with
 * `bare`, where the call takes nothing but URLs (`fetch`, `$.get`), also a bare relative name (`config`).
 */
export function requestLike(value: string, bare = false): boolean {
  if (value.length < 2 || value.length > MAX_VALUE_CHARS || !PATH_CHARS.test(value) || MEDIA_TYPE.test(value)) return false;
  if (bare && /^[A-Za-z][\w.-]*$/.test(value)) return true;
  return (
    /^(?:(?:https?|wss?):)?\/\/[\w{]/i.test(value) ||
    /^\.{0,2}\/[\w{]/.test(value) ||
    /^(?:\{[^}]*\})+[^{]*\//.test(value) ||
    /^[\w-]+(?:\.[\w-]+)*\/[\w{]/.test(value) ||
    /^[\w-]+\.(?:json|php|aspx?|ashx|asmx|cgi|jsp|do)$/i.test(value) ||
    /^[\w.-]+\?/.test(value)
  );
}

/** A string anywhere that reads as a URL by itself: an absolute http(s)/ws(s) URL or a path of at least one named segment. */
export function literalLike(value: string): boolean {
  if (value.length < 2 || value.length > MAX_VALUE_CHARS || !PATH_CHARS.test(value)) return false;
  if (/^(?:https?|wss?):\/\/[a-z0-9{]/i.test(value)) return true;
  // A path: `/segment…`, not `//comment`, not a regular expression's `/^…/` or a lone `/`.
  return /^\/[A-Za-z_{][\w\-.~%{}@]*(?:\/[\w\-.~%{}:@+,;=!$*]*)*(?:[?#].*)?$/.test(value);
}

/** `${expr}` of a template literal as the scanners write it: `{expr}` (a name when the expression is one). */
export function placeholder(expression: string): string {
  const name = /([A-Za-z_$][\w$]*)\s*$/.exec(expression.trim())?.[1];
  return `{${name ?? 'param'}}`;
}
