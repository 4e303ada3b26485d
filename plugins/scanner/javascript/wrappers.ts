/**
 * Request wrappers: apps rarely call `fetch` with the URL where it is written; they call their own
 * `api(path, options)` that passes `path` on to `fetch` or axios. A function whose parameter is
 * the target of a request call is such a wrapper, and so is a function passing its parameter to a
 * wrapper (followed a few levels), so the arguments of calls to it are request targets too.
 * Functions are known by the name they are declared, assigned or defined as a property under.
 */
import type { AnyNode, Node } from 'acorn';
import { calleeName, type RequestTarget } from './requests.ts';

export interface CallSite {
  node: AnyNode;
  /** The function the call is in: its name (null when anonymous) and its parameter names. */
  within: FunctionInfo | null;
}

export interface FunctionInfo {
  name: string | null;
  params: string[];
}

const MAX_LEVELS = 3;

export const FUNCTION_TYPES: ReadonlySet<string> = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** `path` of `(path, options)` and of `(path = "/")`; '' for a destructured parameter. */
export function paramName(param: AnyNode): string {
  if (param.type === 'Identifier') return param.name;
  if (param.type === 'AssignmentPattern' && param.left.type === 'Identifier') return param.left.name;
  return '';
}

/** The parameter position `node` stands for in `within`, when it is a bare parameter. */
function paramIndex(node: Node, within: FunctionInfo | null): number {
  const n = node as AnyNode;
  if (!within?.name || n.type !== 'Identifier') return -1;
  return within.params.indexOf(n.name);
}

/** Targets of calls to wrappers (with the call they are in), given the direct targets of every call site. */
export function wrapperTargets(
  sites: readonly CallSite[],
  direct: ReadonlyMap<AnyNode, RequestTarget[]>,
): Array<{ target: RequestTarget; site: AnyNode }> {
  const wrappers = new Map<string, { index: number; bare: boolean }>();
  const learn = (site: CallSite, target: RequestTarget) => {
    const index = paramIndex(target.node, site.within);
    if (index >= 0 && !wrappers.has(site.within!.name!)) {
      wrappers.set(site.within!.name!, { index, bare: target.bare === true });
      return true;
    }
    return false;
  };
  for (const site of sites) for (const target of direct.get(site.node) ?? []) learn(site, target);
  const found: Array<{ target: RequestTarget; site: AnyNode }> = [];
  const resolved = new Set<AnyNode>();
  for (let level = 0, learned = wrappers.size > 0; level < MAX_LEVELS && learned; level++) {
    learned = false;
    for (const site of sites) {
      if (resolved.has(site.node) || direct.get(site.node)?.length) continue;
      const node = site.node as AnyNode & { callee: Node; arguments: Node[] };
      const name = calleeName(node.callee)?.name;
      const wrapper = name === undefined ? undefined : wrappers.get(name);
      const argument = wrapper && node.arguments[wrapper.index];
      if (!argument) continue;
      resolved.add(site.node);
      const target: RequestTarget = { node: argument, api: 'client', bare: wrapper.bare };
      found.push({ target, site: site.node });
      learned = learn(site, target) || learned;
    }
  }
  return found;
}
