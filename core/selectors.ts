/**
 * CSS selectors from requests (include/exclude selectors, attribute selectors) are checked here
 * before any page is touched, so a typo is a 400 naming the field, not a half-edited page or a
 * silently empty result. Shared by every plugin that takes selectors from a request.
 */
import { badRequest } from './errors.ts';

/** css-select (under linkedom) accepts a dangling combinator and silently matches nothing. */
const DANGLING_COMBINATOR = /(?:^\s*[>+~])|(?:[>+~]\s*$)/;

/** Throws the 400 for the first selector linkedom cannot parse. */
export function validateSelectors(field: string, selectors: readonly string[] | undefined, probe: ParentNode): void {
  selectors?.forEach((selector, i) => {
    let valid = !DANGLING_COMBINATOR.test(selector);
    if (valid) {
      try {
        probe.querySelector(selector);
      } catch {
        valid = false;
      }
    }
    if (!valid) throw badRequest(`Invalid field ${field}[${i}]: invalid CSS selector "${selector}"`);
  });
}
