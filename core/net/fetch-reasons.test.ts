/** Fetch failures become a fixed word per kind (metric labels); the SSRF guard's refusal is known by its type. */
import { expect, test } from 'bun:test';
import { fetchFailed } from '../errors.ts';
import { fetchFailureReason, statusClass } from './fetch-reasons.ts';
import { ForbiddenAddressError } from './http-support.ts';

test('each failure the HTTP client reports maps to one bounded word', () => {
  const cases: Array<[string, string]> = [
    ['address 10.0.0.5 is not allowed (private network)', 'ssrf_refused'],
    ['timed out after 30000 ms', 'timeout'],
    ['connection timeout', 'timeout'],
    ['connection refused', 'connection_refused'],
    ['could not resolve host nowhere.invalid', 'dns'],
    ['connection reset by the server', 'connection_reset'],
    ['host 192.0.2.1 is unreachable', 'unreachable'],
    ['TLS error: certificate has expired', 'tls'],
    ['invalid HTTP response: Parse Error', 'invalid_response'],
    ['too many redirects', 'redirect'],
    ['response body exceeds 20971520 bytes', 'body_too_large'],
    ['invalid URL "nope"', 'invalid_url'],
    ['request aborted', 'aborted'],
    ['something new', 'other'],
  ];
  for (const [reason, word] of cases) expect([reason, fetchFailureReason(fetchFailed(reason))]).toEqual([reason, word]);
  // By type, whatever the message says.
  expect(fetchFailureReason(fetchFailed('x', new ForbiddenAddressError('169.254.169.254', 'link-local')))).toBe('ssrf_refused');
});

test('answers are labelled by status class', () => {
  expect([200, 304, 404, 503, 99].map(statusClass)).toEqual(['2xx', '3xx', '4xx', '5xx', 'other']);
});
