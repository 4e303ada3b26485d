/**
 * turndown's rule lookup, with the rules that cannot match a tag left out ahead of time. turndown
 * asks every rule in turn of every element, lower-casing the element's name once per rule that
 * names tags (a third of the pages with the most markup's conversion). Here the rules are sorted
 * once per tag name into those that may match it, in turndown's order: the rules that name other
 * tags are never asked, rules with a filter function still are. Same rule for every node.
 */
import type TurndownService from 'turndown';

type Filter = string | string[] | ((node: HTMLElement, options: TurndownService.Options) => boolean);
interface Rule {
  filter: Filter;
}
/** turndown's private rule list (the shape of its `Rules`, lib/turndown.cjs.js). */
interface Rules {
  array: Rule[];
  _keep: Rule[];
  _remove: Rule[];
  blankRule: Rule;
  defaultRule: Rule;
  options: TurndownService.Options;
  forNode(node: HTMLElement & { isBlank?: boolean }): Rule;
  add(key: string, rule: Rule): void;
  keep(filter: Filter): void;
  remove(filter: Filter): void;
}

/** May `rule` match an element named `name` (lower case)? Only a filter function's answer depends on more than the name. */
const mayMatch = (rule: Rule, name: string): boolean =>
  typeof rule.filter === 'string'
    ? rule.filter === name
    : Array.isArray(rule.filter)
      ? rule.filter.includes(name)
      : typeof rule.filter === 'function';

/** Makes `service` find each node's rule through per-tag candidate lists; rules added later clear them. */
export function fastRuleLookup(service: TurndownService): void {
  const rules = (service as unknown as { rules: Rules }).rules;
  // by nodeName (what turndown lower-cases): the rules that may match it, array, then keep, then remove
  const byName = new Map<string, Rule[]>();
  const candidates = (nodeName: string): Rule[] => {
    let list = byName.get(nodeName);
    if (!list) {
      const name = nodeName.toLowerCase();
      list = [...rules.array, ...rules._keep, ...rules._remove].filter((rule) => mayMatch(rule, name));
      // (bounded: a hostile page can invent any number of custom element names)
      if (byName.size >= 2000) byName.clear();
      byName.set(nodeName, list);
    }
    return list;
  };
  rules.forNode = function (node) {
    if (node.isBlank) return this.blankRule;
    for (const rule of candidates(node.nodeName)) {
      const { filter } = rule;
      if (typeof filter !== 'function' || filter.call(rule, node, this.options)) return rule;
    }
    return this.defaultRule;
  };
  for (const change of ['add', 'keep', 'remove'] as const) {
    const original = rules[change] as (...args: unknown[]) => void;
    rules[change] = function (this: Rules, ...args: unknown[]) {
      byName.clear();
      original.apply(this, args);
    } as never;
  }
}
