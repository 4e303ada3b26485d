/**
 * Request positions in a syntax tree: which expression of a call, a `new`, an object property or
 * an assignment is the target of a request, and which API makes it. Minified code keeps global
 * names (`fetch`, `WebSocket`, `XMLHttpRequest`'s `open`) and property names (`.get`, `url:`),
 * so that is what is matched; local names are not trusted.
 */
import type { AnyNode, Expression, Node, SpreadElement } from 'acorn';
import type { ScanHit } from '../../../core/kit.ts';
import { CLIENT_FUNCTIONS, CLIENT_METHODS, HTTP_METHODS, REQUEST_KEY } from '../shared/patterns.ts';

export interface RequestTarget {
  node: Node;
  api: NonNullable<ScanHit['api']>;
  /** Held in a plain `url`/`uri` option or variable, not given to a request: weaker evidence. */
  held?: boolean;
  /** A call that only takes URLs (`fetch`, `$.get`, XHR `open`): a bare `config` is a relative URL there. */
  bare?: boolean;
}

/** Objects whose methods are HTTP clients whatever their first argument looks like. */
const CLIENT_OBJECTS = /^(?:\$|jQuery|axios|ky|superagent|http|httpClient|\$http)$/;

const PLAIN_KEY = /^(?:url|uri|href)$/i;
const GRAPHQL_CONSTRUCTOR = /apollo|httplink|graphql|gql|urql|subscriptionclient/i;

/** The name a callee is known by: `fetch`, `axios`, `get` of `axios.get`, `fetch` of `(0, w.fetch)`. */
export function calleeName(callee: Node): { name: string; member: boolean } | null {
  let n = callee as AnyNode;
  if (n.type === 'SequenceExpression') n = n.expressions[n.expressions.length - 1] as AnyNode;
  if (n.type === 'ChainExpression') n = n.expression as AnyNode;
  if (n.type === 'Identifier') return { name: n.name, member: false };
  if (n.type === 'MemberExpression') {
    if (!n.computed && n.property.type === 'Identifier') return { name: n.property.name, member: true };
    if (n.property.type === 'Literal' && typeof n.property.value === 'string') return { name: n.property.value, member: true };
  }
  return null;
}

const keyName = (key: Node): string | null => {
  const k = key as AnyNode;
  if (k.type === 'Identifier') return k.name;
  if (k.type === 'Literal' && typeof k.value === 'string') return k.value;
  return null;
};

const isString = (node: Node | undefined): boolean => {
  const n = node as AnyNode | undefined;
  return n?.type === 'Literal' && typeof n.value === 'string';
};

/** The URL-holding properties of an options object (`{url, method}`, `{uri}`), for calls like `$.ajax({url})`. */
function optionTargets(arg: Expression | SpreadElement | undefined, api: RequestTarget['api']): RequestTarget[] {
  if (arg?.type !== 'ObjectExpression') return [];
  return arg.properties.flatMap((p) => {
    if (p.type !== 'Property') return [];
    const key = keyName(p.key);
    return key && REQUEST_KEY.test(key) ? [{ node: p.value, api, bare: PLAIN_KEY.test(key) }] : [];
  });
}

/** What a call or `new` sends a request to. */
export function callTargets(node: AnyNode): RequestTarget[] {
  if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return [];
  const callee = calleeName(node.callee);
  if (!callee) return [];
  const [first, second] = node.arguments;
  const { name } = callee;
  if (node.type === 'NewExpression') {
    if (name === 'WebSocket') return first ? [{ node: first, api: 'websocket', bare: true }] : [];
    if (name === 'EventSource') return first ? [{ node: first, api: 'eventsource', bare: true }] : [];
    if (name === 'Request') return first ? [{ node: first, api: 'fetch', bare: true }] : [];
    if (GRAPHQL_CONSTRUCTOR.test(name))
      return first?.type === 'ObjectExpression' ? optionTargets(first, 'graphql') : first ? [{ node: first, api: 'graphql' }] : [];
    return [];
  }
  // XHR: `x.open("GET", url)`; `window.open(url)` has no method first.
  if (name === 'open' && callee.member && isString(first) && HTTP_METHODS.has(String((first as { value: unknown }).value).toUpperCase())) {
    return second ? [{ node: second, api: 'xhr', bare: true }] : [];
  }
  if (name === 'sendBeacon') return first ? [{ node: first, api: 'beacon', bare: true }] : [];
  if (name === 'io' && !callee.member) return first && first.type !== 'ObjectExpression' ? [{ node: first, api: 'websocket' }] : [];
  if (GRAPHQL_CONSTRUCTOR.test(name)) return first?.type === 'ObjectExpression' ? optionTargets(first, 'graphql') : [];
  const client = callee.member ? CLIENT_METHODS.has(name) : CLIENT_FUNCTIONS.has(name);
  // Other calls' `{url: …}` options are only `option`s (heldTarget): menus and routers pass them too.
  if (!client) return [];
  const api = name === 'fetch' ? 'fetch' : 'client';
  if (first?.type === 'ObjectExpression') return optionTargets(first, api);
  const bare = name === 'fetch' || !callee.member || CLIENT_OBJECTS.test(objectName(node.callee) ?? '');
  return first && first.type !== 'SpreadElement' ? [{ node: first, api, bare }] : [];
}

/** `$` of `$.get`, `http` of `this.http.get`. */
function objectName(callee: Node): string | null {
  const n = callee as AnyNode;
  if (n.type !== 'MemberExpression') return null;
  const object = n.object as AnyNode;
  if (object.type === 'Identifier') return object.name;
  return object.type === 'MemberExpression' && object.property.type === 'Identifier' ? object.property.name : null;
}

/** `{method: "GET", url: …}` (`type:` for jQuery): a request's configuration wherever it is built. */
function configTarget(node: AnyNode): RequestTarget | null {
  if (node.type !== 'ObjectExpression') return null;
  let url: Node | null = null;
  let method = false;
  for (const p of node.properties) {
    if (p.type !== 'Property') continue;
    const key = keyName(p.key);
    if (key === 'url' || key === 'uri') url = p.value;
    else if (
      (key === 'method' || key === 'type') &&
      isString(p.value) &&
      HTTP_METHODS.has(String((p.value as { value: unknown }).value).toUpperCase())
    )
      method = true;
  }
  return url && method ? { node: url, api: 'client', bare: true } : null;
}

function held(key: string, node: Node): RequestTarget | null {
  if (!REQUEST_KEY.test(key)) return null;
  return { node, api: 'client', held: PLAIN_KEY.test(key) };
}

/** `{url: …}` anywhere, `apiUrl = …`, `const API_ENDPOINT = …`: a request target held for later; `{method, url}`: a request's. */
export function heldTarget(node: AnyNode): RequestTarget | null {
  if (node.type === 'ObjectExpression') return configTarget(node);
  if (node.type === 'Property' && !node.computed) {
    const key = keyName(node.key);
    return key ? held(key, node.value) : null;
  }
  if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) return held(node.id.name, node.init);
  if (node.type === 'AssignmentExpression' && node.operator === '=') {
    const key =
      node.left.type === 'Identifier' ? node.left.name : node.left.type === 'MemberExpression' ? keyName(node.left.property) : null;
    return key ? held(key, node.right) : null;
  }
  return null;
}
