/**
 * One walk over a syntax tree collecting what the scanner reads: the request targets of calls,
 * options and wrappers, the string expressions, and the function scopes with the names bound in
 * them (values.ts), each target and string with the scope it is read in.
 */
import type { AnyNode, Node, Program } from 'acorn';
import { fullAncestor } from 'acorn-walk';
import { callTargets, heldTarget, type RequestTarget } from './requests.ts';
import { Scopes } from './values.ts';
import { enclosingFunction, FUNCTION_TYPES, paramName, wrapperTargets, type CallSite } from './wrappers.ts';

export interface Scoped<T> {
  item: T;
  scope: Node;
}

export interface Collected {
  targets: Array<Scoped<RequestTarget>>;
  strings: Array<Scoped<Node>>;
  scopes: Scopes;
  /** Starts of the values of navigation options (`link:`, `to:`, `path:` …): pages, not requests. */
  navigation: Set<number>;
}

/** Options that hold where a link or route goes (menus, routers, `<Link to>`): a string there is a page. */
const NAVIGATION_KEY = /^(?:link|href|to|path|pathname|route|redirect|redirectTo|navigate|component)$/;

const isStringExpression = (n: AnyNode) =>
  (n.type === 'Literal' && typeof n.value === 'string') || n.type === 'TemplateLiteral' || (n.type === 'BinaryExpression' && n.operator === '+');

/** The innermost function scope holding the last of `ancestors` (itself excluded), else the program. */
function scopeOf(ancestors: readonly Node[], program: Program): Node {
  for (let i = ancestors.length - 2; i >= 0; i--) if (FUNCTION_TYPES.has(ancestors[i]!.type)) return ancestors[i]!;
  return program;
}

export function collect(program: Program): Collected {
  const scopes = new Scopes();
  scopes.addScope(program, null, []);
  const targets: Array<Scoped<RequestTarget>> = [];
  const strings: Array<Scoped<Node>> = [];
  const assignments: Array<Scoped<{ name: string; value: AnyNode | null }>> = [];
  const sites: Array<CallSite & { scope: Node }> = [];
  const direct = new Map<AnyNode, RequestTarget[]>();
  const navigation = new Set<number>();
  fullAncestor(program, (node, _state, ancestors) => {
    const n = node as AnyNode;
    const scope = scopeOf(ancestors, program);
    if (FUNCTION_TYPES.has(n.type)) {
      const fn = n as AnyNode & { params: AnyNode[] };
      scopes.addScope(n, scope, fn.params.map(paramName));
      if (n.type === 'FunctionDeclaration' && n.id) scopes.bind(scope, n.id.name, n);
    }
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') scopes.bind(scope, n.id.name, n.init as AnyNode | null | undefined);
    if (n.type === 'AssignmentExpression' && n.left.type === 'Identifier') assignments.push({ item: { name: n.left.name, value: n.operator === '=' ? n.right : null }, scope });
    if (isStringExpression(n)) strings.push({ item: n, scope });
    if (n.type === 'Property' && !n.computed && n.key.type === 'Identifier' && NAVIGATION_KEY.test(n.key.name)) navigation.add(n.value.start);
    if (n.type === 'CallExpression' || n.type === 'NewExpression') {
      const found = callTargets(n);
      sites.push({ node: n, within: enclosingFunction(ancestors), scope });
      if (found.length) direct.set(n, found);
      targets.push(...found.map((item) => ({ item, scope })));
    }
    const held = heldTarget(n);
    if (held) targets.push({ item: held, scope });
  });
  for (const { item, scope } of assignments) scopes.assign(item.name, scope, item.value);
  const siteScope = new Map(sites.map((s) => [s.node, s.scope]));
  for (const { target, site } of wrapperTargets(sites, direct)) targets.push({ item: target, scope: siteScope.get(site)! });
  return { targets, strings, scopes, navigation };
}
