/**
 * Function scopes of a script, as the value builder (values.ts) reads them: what each scope binds
 * and assigns to a name (a few values at most), which names are parameters, and which names are
 * small URL builders whose returned expression a call can be expanded into.
 */
import type { AnyNode, Node } from 'acorn';

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

export const MAX_ALTERNATIVES = 4;

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

/** What a function returns when its body is one expression or one `return`; null otherwise. */
function builderOf(fn: AnyNode): Builder | null {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration') return null;
  const params = fn.params.map((p) => (p.type === 'Identifier' ? p.name : ''));
  if (fn.body.type !== 'BlockStatement') return { fn, params, returns: fn.body };
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only?.type === 'ReturnStatement' && only.argument ? { fn, params, returns: only.argument } : null;
}
