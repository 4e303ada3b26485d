/**
 * The string an expression builds, as far as the code says it: literals as they are, template
 * literals, `+` and `.concat` with `{name}` for the parts only known at run time, names bound
 * once in their function (`const API = "https://api.site.test"`, `var u = API + "/items"`) replaced
 * by what they hold, and calls of small URL builders (`a = function(p){return base + "-/app/" + p}`)
 * by their returned expression with the arguments put in. Names are looked up function scope by
 * function scope outwards, as minified bundles reuse the same short names in every module; a
 * parameter or a name bound twice in its function is unknown. A value made of no literal text at
 * all is unknown (null): `fetch(url)` alone says nothing.
 */
import type { AnyNode, Node } from 'acorn';
import { placeholder } from '../shared/patterns.ts';

/** A name's binding in one function scope; null when bound twice or assigned there (unknowable). */
type Binding = { init: AnyNode; builder: Builder | null } | null;

interface Builder {
  fn: AnyNode;
  params: string[];
  returns: Node;
}

/** Function scopes (functions and the program), what they bind and what their parameters are. */
export class Scopes {
  private readonly parents = new Map<Node, Node | null>();
  private readonly names = new Map<Node, Map<string, Binding>>();
  private readonly params = new Map<Node, Set<string>>();

  addScope(scope: Node, parent: Node | null, params: string[]): void {
    this.parents.set(scope, parent);
    this.params.set(scope, new Set(params.filter(Boolean)));
  }

  bind(scope: Node, name: string, init: AnyNode | null | undefined): void {
    let names = this.names.get(scope);
    if (!names) this.names.set(scope, (names = new Map()));
    names.set(name, names.has(name) || !init ? null : { init, builder: builderOf(init) });
  }

  /** An assignment makes the name's value unknowable where it is bound. */
  unbind(name: string, scope: Node): void {
    for (let s: Node | null = scope; s; s = this.parents.get(s) ?? null) {
      if (this.params.get(s)?.has(name)) return;
      const names = this.names.get(s);
      if (names?.has(name)) return void names.set(name, null);
    }
  }

  /** The binding `name` has seen from `scope`, with the scope it was made in; undefined when it is a parameter or not found. */
  lookup(name: string, scope: Node | null): { binding: Binding; scope: Node } | undefined {
    for (let s = scope; s; s = this.parents.get(s) ?? null) {
      if (this.params.get(s)?.has(name)) return undefined;
      const names = this.names.get(s);
      if (names?.has(name)) return { binding: names.get(name)!, scope: s };
    }
    return undefined;
  }
}

/** Arguments of a builder call being expanded: its parameters stand for them, read where the call is. */
type Arguments = ReadonlyMap<string, { node: Node; scope: Node | null }>;

const MAX_DEPTH = 24;
/** Nodes visited and characters built for one value: names bound to names bound to … cannot blow up. */
const MAX_STEPS = 2000;
const MAX_CHARS = 4096;
const NONE: Arguments = new Map();

function nameOf(node: Node): string {
  const n = node as AnyNode;
  if (n.type === 'Identifier') return n.name;
  if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') return n.property.name;
  // `encodeURIComponent(id)` stands for `id`.
  if (n.type === 'CallExpression') return n.arguments[0] ? nameOf(n.arguments[0]) : nameOf(n.callee);
  return 'param';
}

interface Built {
  text: string;
  literal: boolean;
}

const join = (parts: Built[]): Built => ({ text: parts.map((p) => p.text).join(''), literal: parts.some((p) => p.literal) });

interface Budget {
  steps: number;
}

function build(node: Node, scopes: Scopes, scope: Node | null, args: Arguments, depth: number, budget: Budget): Built {
  const built = buildNode(node, scopes, scope, args, depth, budget);
  return built.text.length > MAX_CHARS ? { text: '{param}', literal: false } : built;
}

function buildNode(node: Node, scopes: Scopes, scope: Node | null, args: Arguments, depth: number, budget: Budget): Built {
  const n = node as AnyNode;
  const unknown = { text: placeholder(nameOf(n)), literal: false };
  if (depth > MAX_DEPTH || ++budget.steps > MAX_STEPS) return unknown;
  const part = (child: Node) => build(child, scopes, scope, args, depth + 1, budget);
  switch (n.type) {
    case 'Literal':
      return typeof n.value === 'string' ? { text: n.value, literal: true } : unknown;
    case 'TemplateLiteral':
      return join(n.quasis.flatMap((quasi, i) => {
        const expression = n.expressions[i];
        const cooked = { text: quasi.value.cooked ?? quasi.value.raw, literal: (quasi.value.cooked ?? quasi.value.raw).length > 0 };
        if (!expression) return [cooked];
        const built = part(expression);
        return [cooked, built.literal ? built : { text: placeholder(nameOf(expression)), literal: false }];
      }));
    case 'BinaryExpression':
      return n.operator === '+' ? join([part(n.left), part(n.right)]) : unknown;
    case 'ConditionalExpression': {
      // One branch stands for both: the one that says more (`delayed/` over ``, `stats?full=1` over `stats`).
      const [yes, no] = [part(n.consequent), part(n.alternate)];
      if (yes.literal !== no.literal) return yes.literal ? yes : no;
      return yes.text.length >= no.text.length ? yes : no;
    }
    case 'LogicalExpression': {
      // `stored || "/socket.io"`: the default the code writes.
      const [left, right] = [part(n.left), part(n.right)];
      return left.literal || n.operator === '&&' ? left : right;
    }
    case 'Identifier': {
      const argument = args.get(n.name);
      if (argument) return build(argument.node, scopes, argument.scope, NONE, depth + 1, budget);
      const found = scopes.lookup(n.name, scope);
      return found?.binding ? build(found.binding.init, scopes, found.scope, NONE, depth + 1, budget) : unknown;
    }
    case 'CallExpression': {
      const { callee } = n;
      // `"/api/".concat(x)` is what transpilers make of template literals.
      if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'concat') {
        return join([callee.object, ...n.arguments].map(part));
      }
      const builder = callee.type === 'Identifier' && !args.has(callee.name) ? scopes.lookup(callee.name, scope)?.binding?.builder : undefined;
      if (!builder) return unknown;
      const inner = new Map<string, { node: Node; scope: Node | null }>();
      builder.params.forEach((param, i) => n.arguments[i] && inner.set(param, { node: n.arguments[i]!, scope }));
      const built = build(builder.returns, scopes, builder.fn, inner, depth + 1, budget);
      return built.literal ? built : unknown;
    }
    default:
      return unknown;
  }
}

export function valueOf(node: Node | null | undefined, scopes: Scopes, scope: Node | null): string | null {
  if (!node) return null;
  const { text, literal } = build(node, scopes, scope, NONE, 0, { steps: 0 });
  return literal ? text : null;
}

/** What a function returns when its body is one expression or one `return`; null otherwise. */
function builderOf(fn: AnyNode): Builder | null {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration') return null;
  const params = fn.params.map((p) => (p.type === 'Identifier' ? p.name : ''));
  if (fn.body.type !== 'BlockStatement') return { fn, params, returns: fn.body };
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only?.type === 'ReturnStatement' && only.argument ? { fn, params, returns: only.argument } : null;
}
