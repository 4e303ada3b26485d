/**
 * The string an expression builds, as far as the code says it: literals as they are, template
 * literals, `+` and `.concat` with `{name}` for the parts only known at run time, names bound
 * once in their function (`const API = "https://api.site.test"`, `var u = API + "/items"`) replaced
 * by what they hold, and calls of small URL builders (`a = function(p){return base + "-/app/" + p}`)
 * by their returned expression with the arguments put in; `flag ? a : b` gives both, and so does a
 * name given a value in each branch of an `if`. Names are looked up function scope by function
 * scope outwards, as minified bundles reuse the same short names in every module; a parameter is
 * unknown. A value made of no literal text at all is unknown: `fetch(url)` alone says nothing.
 */
import type { AnyNode, Node } from 'acorn';
import { placeholder } from '../shared/patterns.ts';

/** What a name may hold in one function scope: its initial value and every value assigned to it. */
interface Bound {
  node: AnyNode;
  /** Where the value's own names are read. */
  scope: Node;
}

/** A name's binding; null when it cannot be known (more values than kept, or a compound assignment). */
type Binding = { values: Bound[]; builder: Builder | null } | null;

interface Builder {
  fn: AnyNode;
  params: string[];
  returns: Node;
}

const MAX_ALTERNATIVES = 4;

/** Function scopes (functions and the program), what they bind and what their parameters are. */
export class Scopes {
  private readonly parents = new Map<Node, Node | null>();
  private readonly names = new Map<Node, Map<string, Binding>>();
  private readonly params = new Map<Node, Set<string>>();

  addScope(scope: Node, parent: Node | null, params: string[]): void {
    this.parents.set(scope, parent);
    this.params.set(scope, new Set(params.filter(Boolean)));
  }

  /** A declaration (`var x = …`, `function x(){}`, or `let x;` without a value). */
  bind(scope: Node, name: string, init: AnyNode | null | undefined): void {
    let names = this.names.get(scope);
    if (!names) this.names.set(scope, (names = new Map()));
    if (!names.has(name)) names.set(name, { values: [], builder: init ? builderOf(init) : null });
    else if (names.get(name)) names.get(name)!.builder = null;
    if (init) this.add(names, name, { node: init, scope });
  }

  /** `name = value` in `scope` (null: `+=` and the like, which make it unknowable). */
  assign(name: string, scope: Node, value: AnyNode | null): void {
    for (let s: Node | null = scope; s; s = this.parents.get(s) ?? null) {
      if (this.params.get(s)?.has(name)) return;
      const names = this.names.get(s);
      if (!names?.has(name)) continue;
      if (!value) names.set(name, null);
      else if (names.get(name)) {
        names.get(name)!.builder = null;
        this.add(names, name, { node: value, scope });
      }
      return;
    }
  }

  private add(names: Map<string, Binding>, name: string, value: Bound): void {
    const binding = names.get(name);
    if (!binding) return;
    if (binding.values.length >= MAX_ALTERNATIVES) names.set(name, null);
    else binding.values.push(value);
  }

  /** The binding `name` has seen from `scope`; undefined when it is a parameter or not found. */
  lookup(name: string, scope: Node | null): Binding | undefined {
    for (let s = scope; s; s = this.parents.get(s) ?? null) {
      if (this.params.get(s)?.has(name)) return undefined;
      const names = this.names.get(s);
      if (names?.has(name)) return names.get(name)!;
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

/** One way the expression can come out: its text and whether any of it came from the code's own strings. */
interface Alternative {
  text: string;
  literal: boolean;
}

/** Every way it can come out (`flag ? "/a" : "/b"`), at most MAX_ALTERNATIVES. */
type Built = Alternative[];

function distinct(alternatives: Built): Built {
  const seen = new Set<string>();
  return alternatives.filter((a) => !seen.has(a.text) && seen.add(a.text)).slice(0, MAX_ALTERNATIVES);
}

/** Concatenation: every combination of the parts' alternatives, the first MAX_ALTERNATIVES kept. */
function join(parts: Built[]): Built {
  let result: Built = [{ text: '', literal: false }];
  for (const part of parts) {
    result = distinct(result.flatMap((r) => part.map((a) => ({ text: r.text + a.text, literal: r.literal || a.literal }))));
  }
  return result;
}

interface Budget {
  steps: number;
}

function build(node: Node, scopes: Scopes, scope: Node | null, args: Arguments, depth: number, budget: Budget): Built {
  return buildNode(node, scopes, scope, args, depth, budget).map((a) =>
    a.text.length > MAX_CHARS ? { text: '{param}', literal: false } : a,
  );
}

function buildNode(node: Node, scopes: Scopes, scope: Node | null, args: Arguments, depth: number, budget: Budget): Built {
  const n = node as AnyNode;
  const unknown = [{ text: placeholder(nameOf(n)), literal: false }];
  if (depth > MAX_DEPTH || ++budget.steps > MAX_STEPS) return unknown;
  const part = (child: Node) => build(child, scopes, scope, args, depth + 1, budget);
  switch (n.type) {
    case 'Literal':
      return typeof n.value === 'string' ? [{ text: n.value, literal: true }] : unknown;
    case 'TemplateLiteral':
      return join(
        n.quasis.flatMap((quasi, i) => {
          const text = quasi.value.cooked ?? quasi.value.raw;
          const expression = n.expressions[i];
          if (!expression) return [[{ text, literal: text.length > 0 }]];
          const named = { text: placeholder(nameOf(expression)), literal: false };
          return [[{ text, literal: text.length > 0 }], distinct(part(expression).map((a) => (a.literal ? a : named)))];
        }),
      );
    case 'BinaryExpression':
      return n.operator === '+' ? join([part(n.left), part(n.right)]) : unknown;
    case 'ConditionalExpression':
      return distinct([...part(n.consequent), ...part(n.alternate)]);
    case 'LogicalExpression': {
      // `stored || "/socket.io"`: the default the code writes; `ready && "/x"`: the right side.
      if (n.operator === '&&') return part(n.right);
      return distinct([...part(n.left).filter((a) => a.literal), ...part(n.right)]);
    }
    case 'Identifier': {
      const argument = args.get(n.name);
      if (argument) return build(argument.node, scopes, argument.scope, NONE, depth + 1, budget);
      const binding = scopes.lookup(n.name, scope);
      if (!binding?.values.length) return unknown;
      return distinct(binding.values.flatMap((value) => build(value.node, scopes, value.scope, NONE, depth + 1, budget)));
    }
    case 'CallExpression': {
      const { callee } = n;
      // `"/api/".concat(x)` is what transpilers make of template literals.
      if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'concat') {
        return join([callee.object, ...n.arguments].map(part));
      }
      const builder = callee.type === 'Identifier' && !args.has(callee.name) ? scopes.lookup(callee.name, scope)?.builder : undefined;
      if (!builder) return unknown;
      const inner = new Map<string, { node: Node; scope: Node | null }>();
      for (const [i, param] of builder.params.entries()) if (n.arguments[i]) inner.set(param, { node: n.arguments[i]!, scope });
      const built = build(builder.returns, scopes, builder.fn, inner, depth + 1, budget);
      return built.some((a) => a.literal) ? built : unknown;
    }
    default:
      return unknown;
  }
}

/** The values an expression can build (each with some literal text), at most four; none when unknown. */
export function valuesOf(node: Node | null | undefined, scopes: Scopes, scope: Node | null): string[] {
  if (!node) return [];
  return build(node, scopes, scope, NONE, 0, { steps: 0 })
    .filter((a) => a.literal)
    .map((a) => a.text);
}

/** What a function returns when its body is one expression or one `return`; null otherwise. */
function builderOf(fn: AnyNode): Builder | null {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration') return null;
  const params = fn.params.map((p) => (p.type === 'Identifier' ? p.name : ''));
  if (fn.body.type !== 'BlockStatement') return { fn, params, returns: fn.body };
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only?.type === 'ReturnStatement' && only.argument ? { fn, params, returns: only.argument } : null;
}
