/**
 * How plugins talk to the services an operator configured (search and language-model providers):
 * through the core HTTP client (timeouts, body cap; the configured base URL's origin is exempt
 * from the private-address refusal because the operator chose it, redirects elsewhere are not),
 * with failures turned into messages a user can act on — the host that could not be reached, a
 * service that did not answer in time (504), the status and the service's own words, how long to
 * wait after a 429 (`Retry-After`, seconds or an HTTP date) — never into an empty answer.
 */
import type { FetchedResponse } from './response.ts';
import { TrawlError } from '../errors.ts';
import { responseText } from '../response-text.ts';
import type { HttpClient } from '../services.ts';

/** Provider answers are JSON of at most a few MB; one sending more is broken. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;
/** How long a provider that said 429 without saying how long is left alone. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
const MAX_DETAIL_CHARS = 300;

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as an HTML form (`application/x-www-form-urlencoded`). */
  form?: Record<string, string>;
  /** Sent as it is (a client library's own request body; its headers say the type). */
  body?: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** A provider failure; `retryAfterSeconds` says when asking again makes sense. */
export const providerError = (message: string, retryAfterSeconds?: number) => new TrawlError('bad_gateway', message, { retryAfterSeconds });

export async function callProvider(http: HttpClient, url: string, request: ProviderRequest): Promise<FetchedResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers['content-type'] = 'application/json';
  } else if (request.form) {
    body = new URLSearchParams(request.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else {
    body = request.body;
  }
  try {
    return await http.request(url, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      maxBodyBytes: MAX_ANSWER_BYTES,
      configuredService: true,
    });
  } catch (err) {
    if (request.signal.aborted) throw err;
    const reason = err instanceof Error ? err.message.replace(/^Failed to fetch URL: /, '') : String(err);
    // The client's own time limit: the provider is there but did not answer.
    if (/^(connection timeout|timed out after)/.test(reason))
      throw new TrawlError('gateway_timeout', `no answer from ${new URL(url).host} within ${request.timeoutMs} ms`);
    // A refused redirect names its target: the provider was reached, where it pointed was not allowed.
    throw providerError(
      reason.startsWith('redirect to ')
        ? `${new URL(url).host} answered with a ${reason}`
        : `could not reach ${new URL(url).host}: ${reason}`,
    );
  }
}

/** Where requests go, for /health: origin and path, never credentials or a query string. */
export function endpointOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** `base` + `path` with exactly one slash between them, keeping any path prefix of `base`. */
export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), if it has a usable one. */
export function retryAfterSeconds(headers: Record<string, string>): number | undefined {
  const raw = headers['retry-after']?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Math.max(1, Number(raw));
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/** How long an answer asked to be left alone: the Retry-After of a 429 or 503, else undefined. */
export function waitAskedFor(response: Pick<FetchedResponse, 'status' | 'headers'>): number | undefined {
  return response.status === 429 || response.status === 503 ? retryAfterSeconds(response.headers) : undefined;
}

/** One line of a provider's own error text, bounded. */
export const detail = (text: unknown): string =>
  typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL_CHARS) : '';

/**
 * The error for an answer with a failing status. `keyed`: a 401/403 means the key was refused.
 * `wait` overrides the Retry-After header (providers that say it their own way).
 */
export function statusError(response: FetchedResponse, said: string, options: { keyed?: boolean; wait?: number } = {}): TrawlError {
  const { status } = response;
  const why = said ? `: ${said}` : '';
  if (status === 429) {
    const wait = options.wait ?? retryAfterSeconds(response.headers) ?? DEFAULT_RETRY_AFTER_SECONDS;
    return providerError(`rate limited (HTTP 429${why}); retry after ${wait} s`, wait);
  }
  if (options.keyed && (status === 401 || status === 403)) return providerError(`the API key was rejected (HTTP ${status}${why})`);
  return providerError(`HTTP ${status}${why}`);
}

/** The body as JSON; a body that is not JSON (an HTML error page from a proxy) is an error, not an empty answer. */
export function jsonOf(response: FetchedResponse): unknown {
  const text = responseText(response);
  try {
    return JSON.parse(text);
  } catch {
    const what = response.mediaType ? `${response.mediaType} ` : '';
    throw providerError(`answered HTTP ${response.status} with a ${what}body that is not JSON`);
  }
}

/** Parsed JSON of an error answer, or null (some error pages are HTML). */
export function errorJson(response: FetchedResponse): Record<string, unknown> | null {
  try {
    const value = JSON.parse(responseText(response)) as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
