/**
 * Fetch outcomes as metric labels: a fixed word per kind of failure (the reasons the HTTP client
 * and the browser give people contain hosts, addresses and byte counts, which a label must not),
 * or the status class of an answer.
 */
import { isGuardRefusal } from './http-support.ts';

const REASONS: ReadonlyArray<[RegExp, string]> = [
  [/the proxy \S+ refused|through the proxy /, 'proxy_refused'],
  [/is not allowed \(|forbidden address/, 'ssrf_refused'],
  [/timed out|timeout/, 'timeout'],
  [/connection refused/, 'connection_refused'],
  [/could not resolve host/, 'dns'],
  [/connection reset|closed before the response body/, 'connection_reset'],
  [/unreachable/, 'unreachable'],
  [/TLS error/, 'tls'],
  [/invalid HTTP response/, 'invalid_response'],
  [/too many redirects|redirect/, 'redirect'],
  [/exceeds \d+ bytes/, 'body_too_large'],
  [/invalid URL|unsupported URL scheme/, 'invalid_url'],
  [/aborted|cancelled/, 'aborted'],
];

/** The label for a failed fetch, from the error (the SSRF guard's refusal is recognised by type first). */
export function fetchFailureReason(err: unknown): string {
  if (isGuardRefusal(err)) return 'ssrf_refused';
  const message = err instanceof Error ? err.message : String(err);
  return REASONS.find(([pattern]) => pattern.test(message))?.[1] ?? 'other';
}

/** `2xx`, `3xx`, `4xx`, `5xx` (anything else is `other`). */
export const statusClass = (status: number) => (status >= 200 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other');
