/**
 * What every search provider shares for HTTP: the core's provider calls (core/net/provider-http.ts:
 * the configured-service rule, failures as messages, Retry-After) and snippets with markup turned
 * into plain text.
 */
import { parseHtmlFragment } from '../../../core/kit.ts';

export {
  callProvider,
  DEFAULT_RETRY_AFTER_SECONDS,
  detail,
  errorJson,
  jsonOf,
  providerError,
  retryAfterSeconds,
  statusError,
} from '../../../core/kit.ts';

/** Text of a snippet that may hold markup (`<strong>`) and entities; bounded before it is parsed. */
export function plainText(value: unknown, max = 2000): string {
  if (typeof value !== 'string') return '';
  const clipped = value.slice(0, max * 2);
  const text = /[<&]/.test(clipped) ? (parseHtmlFragment(clipped).textContent ?? '') : clipped;
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}
