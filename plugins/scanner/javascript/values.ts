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
import { MAX_ALTERNATIVES, type Scopes } from './scopes.ts';

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
