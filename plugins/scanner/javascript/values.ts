/**
 * The string an expression builds, as far as the code says it: literals as they are, template
 * literals and `+` concatenations with `{name}` for the parts only known at run time, and names
 * bound once to a string (`const API = "https://api.site.test"`) replaced by that string. A value
 * made of no literal text at all is unknown (null): `fetch(url)` alone says nothing.
 */
import type { AnyNode, Expression, Identifier, Node, Program, VariableDeclarator } from 'acorn';
import { placeholder } from '../shared/patterns.ts';

/** Names declared exactly once with a string value; a name bound twice (minified code reuses names) is left out. */
export type Constants = ReadonlyMap<string, string>;

const MAX_DEPTH = 24;

function nameOf(node: Node): string {
  const n = node as AnyNode;
  if (n.type === 'Identifier') return n.name;
  if (n.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') return n.property.name;
  if (n.type === 'CallExpression') return nameOf(n.callee);
  return 'param';
}

/** `{text, literal}`: the text built and whether any of it came from the code's own strings. */
function build(node: Node, constants: Constants, depth: number): { text: string; literal: boolean } {
  const n = node as AnyNode;
  if (depth > MAX_DEPTH) return { text: '{param}', literal: false };
  if (n.type === 'Literal' && typeof n.value === 'string') return { text: n.value, literal: true };
  if (n.type === 'TemplateLiteral') {
    let text = '';
    let literal = false;
    n.quasis.forEach((quasi, i) => {
      const cooked = quasi.value.cooked ?? quasi.value.raw;
      if (cooked) literal = true;
      text += cooked;
      const expression = n.expressions[i];
      if (expression) {
        const part = build(expression, constants, depth + 1);
        text += part.literal ? part.text : placeholder(nameOf(expression));
        literal ||= part.literal;
      }
    });
    return { text, literal };
  }
  if (n.type === 'BinaryExpression' && n.operator === '+') {
    const left = build(n.left, constants, depth + 1);
    const right = build(n.right, constants, depth + 1);
    return { text: left.text + right.text, literal: left.literal || right.literal };
  }
  if (n.type === 'Identifier' && constants.has(n.name)) return { text: constants.get(n.name)!, literal: true };
  // `"/api/".concat(x)` is what transpilers make of template literals.
  if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && n.callee.property.type === 'Identifier' && n.callee.property.name === 'concat') {
    const parts = [n.callee.object, ...n.arguments].map((part) => build(part, constants, depth + 1));
    return { text: parts.map((p) => p.text).join(''), literal: parts.some((p) => p.literal) };
  }
  return { text: placeholder(nameOf(n)), literal: false };
}

export function valueOf(node: Node | null | undefined, constants: Constants): string | null {
  if (!node) return null;
  const { text, literal } = build(node, constants, 0);
  return literal ? text : null;
}

/** Collects the once-bound string names of a program from its declarators; a name assigned anywhere is not one. */
export function constantsOf(declarators: readonly VariableDeclarator[], assigned: ReadonlySet<string>): Constants {
  const values = new Map<string, string>();
  const seen = new Set<string>(assigned);
  for (const d of declarators) {
    if (d.id.type !== 'Identifier') continue;
    const name = (d.id as Identifier).name;
    if (seen.has(name)) {
      values.delete(name);
      continue;
    }
    seen.add(name);
    const init = d.init as Expression | null | undefined;
    if (init && ((init.type === 'Literal' && typeof init.value === 'string') || (init.type === 'TemplateLiteral' && init.expressions.length === 0))) {
      values.set(name, init.type === 'Literal' ? String(init.value) : init.quasis[0]!.value.cooked ?? '');
    }
  }
  return values;
}

export type { Program };
