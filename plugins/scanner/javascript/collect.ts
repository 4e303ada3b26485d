/**
 * One walk over a syntax tree collecting what the scanner reads: the request targets of calls,
 * options and wrappers, the string expressions, and the function scopes with the names bound in
 * them (values.ts), each target and string with the scope it is read in.
 */
import type { AnyNode, Node, Program } from 'acorn';
import { base, full, make } from 'acorn-walk';
import { callTargets, heldTarget, type RequestTarget } from './requests.ts';
import { Scopes } from './scopes.ts';
import { FUNCTION_TYPES, paramName, wrapperTargets, type CallSite, type FunctionInfo } from './wrappers.ts';

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
  (n.type === 'Literal' && typeof n.value === 'string') ||
  n.type === 'TemplateLiteral' ||
  (n.type === 'BinaryExpression' && n.operator === '+');

/** The default walker, but a function's parameters and body are walked with the function as their scope. */
const scoped = make<Node>({ Function: (node, _scope, c) => base.Function!(node, node, c) });

/** The name a function is declared, assigned or defined as a property under. */
function functionNamed(n: AnyNode, names: Map<Node, string>): void {
  const isFunction = (node: Node | null | undefined): node is Node => !!node && FUNCTION_TYPES.has(node.type);
  if (n.type === 'FunctionDeclaration' && n.id) names.set(n, n.id.name);
  else if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && isFunction(n.init)) names.set(n.init, n.id.name);
  else if ((n.type === 'Property' || n.type === 'MethodDefinition') && n.key.type === 'Identifier' && isFunction(n.value))
    names.set(n.value, n.key.name);
  else if (n.type === 'AssignmentExpression' && isFunction(n.right)) {
    const name =
      n.left.type === 'Identifier'
        ? n.left.name
        : n.left.type === 'MemberExpression' && n.left.property.type === 'Identifier'
          ? n.left.property.name
          : null;
    if (name) names.set(n.right, name);
  }
}

export function collect(program: Program): Collected {
  const scopes = new Scopes();
  scopes.addScope(program, null, []);
  const targets: Array<Scoped<RequestTarget>> = [];
  const strings: Array<Scoped<Node>> = [];
  const assignments: Array<Scoped<{ name: string; value: AnyNode | null }>> = [];
  const sites: Array<{ node: AnyNode; scope: Node }> = [];
  const direct = new Map<AnyNode, RequestTarget[]>();
  const navigation = new Set<number>();
  const functionNames = new Map<Node, string>();
  const functionParams = new Map<Node, string[]>();
  // The callback gets each node after its children, with the scope the node is in.
  full(
    program,
    (node, scope) => {
      const n = node as AnyNode;
      if (FUNCTION_TYPES.has(n.type)) {
        const params = (n as AnyNode & { params: AnyNode[] }).params.map(paramName);
        functionParams.set(n, params);
        scopes.addScope(n, scope, params);
        if (n.type === 'FunctionDeclaration' && n.id) scopes.bind(scope, n.id.name, n);
      }
      functionNamed(n, functionNames);
      if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier')
        scopes.bind(scope, n.id.name, n.init as AnyNode | null | undefined);
      if (n.type === 'AssignmentExpression' && n.left.type === 'Identifier')
        assignments.push({ item: { name: n.left.name, value: n.operator === '=' ? n.right : null }, scope });
      if (isStringExpression(n)) strings.push({ item: n, scope });
      if (n.type === 'Property' && !n.computed && n.key.type === 'Identifier' && NAVIGATION_KEY.test(n.key.name))
        navigation.add(n.value.start);
      if (n.type === 'CallExpression' || n.type === 'NewExpression') {
        const found = callTargets(n);
        sites.push({ node: n, scope });
        if (found.length) direct.set(n, found);
        targets.push(...found.map((item) => ({ item, scope })));
      }
      const held = heldTarget(n);
      if (held) targets.push({ item: held, scope });
    },
    scoped,
    program,
  );
  for (const { item, scope } of assignments) scopes.assign(item.name, scope, item.value);
  const within = (scope: Node): FunctionInfo | null =>
    scope === program ? null : { name: functionNames.get(scope) ?? null, params: functionParams.get(scope) ?? [] };
  const callSites: CallSite[] = sites.map((site) => ({ node: site.node, within: within(site.scope) }));
  const siteScope = new Map(sites.map((s) => [s.node, s.scope]));
  for (const { target, site } of wrapperTargets(callSites, direct)) targets.push({ item: target, scope: siteScope.get(site)! });
  return { targets, strings, scopes, navigation };
}
