/**
 * CSS selectors from requests (include/exclude selectors, attribute selectors) are checked here
 * before any page is touched, so a typo is a 400 naming the field, not a half-edited page or a
 * silently empty result, and a selector built to stall the matcher (thousands of alternatives,
 * deep pseudo-class nesting, absurd :nth-*() numbers, :has() over siblings) is a 400 naming the
 * limit, not minutes of CPU. Measured on the DOM the parser builds, `p:has(~ p)` and `p:has(+ p)`
 * cost ~0.5 s on 2,000 siblings and grow with their square (`p:has(~ p ~ p)` with the cube); what
 * passes these checks is still bounded while it runs (scrape.selectorBudgetMs). Shared by every plugin that takes selectors from a request.
 *
 * The limits are far above anything written by hand or copied from devtools, and low enough that
 * the one query a list becomes stays cheap on the largest page the HTML parser keeps.
 */
import { isTraversal, parse, type Selector } from 'css-what';
import { parseHtmlFragment } from './dom.ts';
import { badRequest } from './errors.ts';

export const SELECTOR_LIMITS = {
  /** Selectors in one request field (include, exclude, attribute selectors). */
  count: 50,
  /** Characters in one selector. */
  length: 2000,
  /** Comma-separated alternatives in one selector, those inside :is()/:not()/:has() lists included. */
  alternatives: 50,
  /** Alternatives in all the selectors of one field: a list is matched as one query. */
  alternativesPerField: 100,
  /** Combinators in one alternative (`a > b c` has two). */
  combinators: 50,
  /** Pseudo-classes taking selectors inside one another (`:not(:has(:is(a)))` is 3). */
  nesting: 3,
  /**
   * Largest number in an :nth-*() argument (An+B), far past any written by hand. The numbers do not
   * change the cost (css-select counts an element's siblings whatever they are); absurd ones are refused.
   */
  nth: 10_000,
} as const;

/** css-select (under linkedom) accepts a dangling combinator and silently matches nothing. */
const DANGLING_COMBINATOR = /(?:^\s*[>+~])|(?:[>+~]\s*$)/;
const NTH = new Set(['nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type']);
/** `An+B of S` (nth-child, nth-last-child): S is a selector list, measured like any other. */
const NTH_OF = /^(.+?)\s+of\s+(.+)$/is;

/** Compiling against an empty document proves a selector parses without matching it against a page. */
let probe: Element | undefined;

interface Shape {
  alternatives: number;
  combinators: number;
  nesting: number;
  /** The first :nth-*() whose numbers are out of range. */
  badNth: string | null;
  /** A :has() whose relative selector starts by stepping to siblings (`:has(~ p)`, `:has(+ p)`). */
  siblingHas: boolean;
}

/**
 * Throws the 400 for the first selector that does not parse or passes a limit. Never matches a
 * selector against a page: an expensive one must not run here either.
 */
export function validateSelectors(field: string, selectors: readonly string[] | undefined): void {
  if (!selectors) return;
  if (selectors.length > SELECTOR_LIMITS.count) throw badRequest(`Invalid field ${field}: at most ${SELECTOR_LIMITS.count} selectors`);
  let total = 0;
  selectors.forEach((selector, i) => {
    const fail = (why: string) => badRequest(`Invalid field ${field}[${i}]: ${why}`);
    if (selector.length > SELECTOR_LIMITS.length) throw fail(`selector is longer than ${SELECTOR_LIMITS.length} characters`);
    const shape = measureSelector(selector);
    if (!shape) throw fail(`invalid CSS selector "${selector}"`);
    if (shape.alternatives > SELECTOR_LIMITS.alternatives)
      throw fail(`selector has more than ${SELECTOR_LIMITS.alternatives} alternatives`);
    total += shape.alternatives;
    if (total > SELECTOR_LIMITS.alternativesPerField)
      throw fail(`the selectors have more than ${SELECTOR_LIMITS.alternativesPerField} alternatives in all`);
    if (shape.combinators > SELECTOR_LIMITS.combinators)
      throw fail(`selector has more than ${SELECTOR_LIMITS.combinators} combinators in one alternative`);
    if (shape.nesting > SELECTOR_LIMITS.nesting) throw fail(`selector nests pseudo-classes more than ${SELECTOR_LIMITS.nesting} deep`);
    if (shape.badNth) throw fail(`:${shape.badNth}() argument out of range (numbers up to ${SELECTOR_LIMITS.nth})`);
    if (shape.siblingHas)
      throw fail(
        `"${selector}": :has() with a sibling combinator (~ or +) is not supported (it costs time growing with the square of a page's siblings)`,
      );
  });
}

/** The selector's shape, or null when it does not parse (css-what, then css-select's compiler). */
function measureSelector(selector: string): Shape | null {
  if (DANGLING_COMBINATOR.test(selector)) return null;
  const shape: Shape = { alternatives: 0, combinators: 0, nesting: 0, badNth: null, siblingHas: false };
  try {
    measure(parse(selector), 0, shape);
    // within the limits, so compiling is cheap; css-select refuses what css-what lets through (unknown pseudo-classes)
    if (!shape.badNth && shape.alternatives <= SELECTOR_LIMITS.alternatives && shape.nesting <= SELECTOR_LIMITS.nesting) {
      (probe ??= parseHtmlFragment('')).querySelector(selector);
    }
  } catch {
    return null;
  }
  return shape;
}

/**
 * A :has() argument starting with a sibling combinator is matched by walking every following
 * sibling of every element tested; one starting below the element (`:has(p ~ p)`) stays cheap.
 */
const SIBLING = new Set(['sibling', 'adjacent']);

function measure(list: Selector[][], depth: number, shape: Shape, has = false): void {
  shape.alternatives += list.length;
  shape.nesting = Math.max(shape.nesting, depth);
  for (const alternative of list) {
    let combinators = 0;
    for (const token of alternative) {
      if (isTraversal(token)) combinators++;
      if (has && token === alternative[0] && SIBLING.has(token.type)) shape.siblingHas = true;
      if (token.type !== 'pseudo') continue;
      if (Array.isArray(token.data)) measure(token.data, depth + 1, shape, token.name === 'has');
      else if (typeof token.data === 'string' && NTH.has(token.name)) {
        const of = token.data.match(NTH_OF);
        if (!shape.badNth && !nthInRange(of ? of[1]! : token.data)) shape.badNth = token.name;
        if (of) measure(parse(of[2]!), depth + 1, shape);
      }
    }
    shape.combinators = Math.max(shape.combinators, combinators);
  }
}

/** Every number in an An+B argument ("odd", "-n+3", "9999999999999n+1") is at most the limit. */
function nthInRange(argument: string): boolean {
  for (const digits of argument.match(/\d+/g) ?? []) {
    if (digits.length > 6 || Number(digits) > SELECTOR_LIMITS.nth) return false;
  }
  return true;
}
