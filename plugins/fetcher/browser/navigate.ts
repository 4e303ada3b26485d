/**
 * The first navigation of a rendered page and what its failures mean to a user: Chromium's
 * `net::ERR_*` codes become the same "Failed to fetch URL: <reason>" wording the HTTP client uses,
 * and a page whose connection the guard proxy refused or could not open reports the proxy's reason
 * (the proxy answers those with a 403/502 or a failed tunnel, which alone would say nothing).
 */
import type { Page, Response } from 'playwright-core';
import { fetchFailed, TrawlError } from '../../../core/kit.ts';
import type { BrowserRequestFailure } from '../../../core/kit.ts';

const NET_REASONS: Record<string, (host: string) => string> = {
  ERR_CONNECTION_REFUSED: () => 'connection refused',
  ERR_NAME_NOT_RESOLVED: (host) => `could not resolve host ${host}`,
  ERR_NAME_RESOLUTION_FAILED: (host) => `could not resolve host ${host}`,
  ERR_CONNECTION_TIMED_OUT: () => 'connection timeout',
  ERR_TIMED_OUT: () => 'connection timeout',
  ERR_CONNECTION_RESET: () => 'connection reset by the server',
  ERR_CONNECTION_CLOSED: () => 'connection reset by the server',
  ERR_EMPTY_RESPONSE: () => 'the server closed the connection without answering',
  ERR_ADDRESS_UNREACHABLE: (host) => `host ${host} is unreachable`,
  ERR_INTERNET_DISCONNECTED: (host) => `host ${host} is unreachable`,
  ERR_TOO_MANY_REDIRECTS: () => 'too many redirects',
  ERR_INVALID_RESPONSE: () => 'invalid HTTP response',
  ERR_UNSAFE_REDIRECT: () => 'redirect to an unsupported scheme',
  ERR_UNSAFE_PORT: () => 'the port is not allowed by the browser',
};

/** What the guard proxy recorded for this URL: its own request, or the tunnel to its host. */
/** Chromium sends (so the proxy records) a URL without its user:password part; Playwright reports it with. */
function withoutUserinfo(url: string): URL {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed;
}

export function recordedFailure(failures: readonly BrowserRequestFailure[], url: string): BrowserRequestFailure | undefined {
  const { protocol, hostname, port, href } = withoutUserinfo(url);
  const tunnel = protocol === 'https:' ? `https://${hostname}:${port || 443}` : null;
  return failures.findLast((f) => f.url === href || f.url === tunnel);
}

/** The user-facing failure for an error thrown by `page.goto`. */
export function navigationFailure(err: unknown, url: string, failures: readonly BrowserRequestFailure[], timeoutMs: number): TrawlError {
  const message = err instanceof Error ? err.message : String(err);
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  // A redirect hop the proxy refused fails the navigation too, under a URL we never asked for.
  const recorded = recordedFailure(failures, url) ?? (code === 'ERR_TUNNEL_CONNECTION_FAILED' ? failures.at(-1) : undefined);
  if (recorded) return recordedPageFailure(recorded, err);
  if (err instanceof Error && err.name === 'TimeoutError') return fetchFailed(`timed out after ${timeoutMs} ms`, err);
  if (/Download is starting/i.test(message)) {
    return fetchFailed(
      'the browser downloads this URL instead of showing it; scrape files without render, actions, screenshot or mobile',
      err,
    );
  }
  if (code) {
    const host = new URL(url).hostname;
    if (code.startsWith('ERR_CERT_') || code.startsWith('ERR_SSL_')) return fetchFailed(`TLS error: ${code}`, err);
    return fetchFailed(NET_REASONS[code]?.(host) ?? `browser error ${code}`, err);
  }
  return fetchFailed(message.split('\n')[0]!.replace(/^page\.goto: /, ''), err);
}

/**
 * Opens the URL and waits for the DOM; the load event and a quiet network are waited for
 * afterwards with a cap, so one hanging image cannot fail the whole page.
 */
export async function navigate(page: Page, url: string, failures: readonly BrowserRequestFailure[], timeoutMs: number): Promise<Response> {
  let response: Response | null;
  try {
    response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (err) {
    throw navigationFailure(err, url, failures, timeoutMs);
  }
  if (!response) throw fetchFailed('the browser received no response');
  assertDelivered(response, failures);
  return response;
}

/** Throws when the page's document is the guard proxy's refusal or gateway error, not the site's answer. */
export function assertDelivered(response: Response, failures: readonly BrowserRequestFailure[]): void {
  const delivered = withoutUserinfo(response.url()).href;
  const recorded = failures.findLast((f) => f.url === delivered);
  if (recorded) throw recordedPageFailure(recorded);
}

/** The page itself could not be had: the proxy's reason, with the setting that allows a refused address. */
function recordedPageFailure(recorded: BrowserRequestFailure, cause?: unknown): TrawlError {
  if (recorded.limit) return new TrawlError('unprocessable', `The rendered page is too large: ${recorded.reason}`, { cause });
  return fetchFailed(recorded.hint ? `${recorded.reason}; ${recorded.hint}` : recorded.reason, cause);
}
