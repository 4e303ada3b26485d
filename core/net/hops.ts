/**
 * One request of the HTTP client (http-client.ts) as it goes from hop to hop: the hop's request
 * and its deadline state, headers in and out, the request a redirect leads to (with the method and
 * credential rules browsers follow), and the one error shape anything thrown along the way becomes.
 */
import type { IncomingMessage } from 'node:http';
import { TrawlError, fetchFailed } from '../errors.ts';
import { forbiddenAddressReason, isIpLiteral } from './ssrf.ts';
import { redactProxy } from './proxies.ts';
import { ProxyRefusedError, scrubProxy } from './proxy-dial.ts';
import { describeNetworkError, ForbiddenAddressError, RequestTimeout } from './http-support.ts';

export const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Credentials the caller meant for one origin must not follow a redirect to another. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export interface Attempt {
  /** Whether response headers have arrived; decides between "connection timeout" and a body timeout. */
  gotHeaders: boolean;
  signal: AbortSignal;
  timeoutMs: number;
}

export interface HopRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The proxy every hop of this request goes through (picked once, at the start); null: direct. */
  proxy: string | null;
}

/** Turns anything thrown during a request into the one error shape callers see. */
export function requestFailure(err: unknown, url: URL, attempt: Attempt, proxy: string | null): TrawlError {
  if (err instanceof TrawlError) return err;
  if (err instanceof ProxyRefusedError) return fetchFailed(err.message, err);
  if (proxy && !attempt.signal.aborted && !(err instanceof ForbiddenAddressError)) {
    return fetchFailed(`through the proxy ${redactProxy(proxy)}: ${scrubProxy(describeNetworkError(err, url.hostname), proxy)}`, err);
  }
  // Decided by the signal, not the error: the platform may wrap the reason a socket was destroyed with.
  if (attempt.signal.aborted) {
    if (!(attempt.signal.reason instanceof RequestTimeout)) return fetchFailed('request aborted', err);
    return attempt.gotHeaders ? fetchFailed(`timed out after ${attempt.timeoutMs} ms`, err) : fetchFailed('connection timeout', err);
  }
  return fetchFailed(describeNetworkError(err, url.hostname), err);
}

/**
 * A configured service on this machine or its private network (Ollama on localhost, SearXNG by its
 * compose name) is reached directly: the default proxy is for the web, and would not reach them.
 */
export function isLocalService(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIpLiteral(host)) return forbiddenAddressReason(host) !== null;
  return (
    !host.includes('.') || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')
  );
}

/**
 * Headers of every source, later ones winning. `host` and `proxy-*` are the client's own: a caller's
 * Host would tell a forwarding proxy to connect somewhere the guard never checked.
 */
export function mergeHeaders(...sources: Record<string, string>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    for (const [k, v] of Object.entries(source)) {
      const name = k.toLowerCase();
      if (name !== 'host' && !name.startsWith('proxy-')) out[name] = v;
    }
  }
  return out;
}

export function flattenHeaders(raw: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * A configured service (a provider) redirected to an address the guard refuses: the answer names
 * where the redirect pointed, and not the setting that would allow private addresses — the
 * service's own address is what the operator configured; where it sends requests is not.
 */
export function redirectRefused(refusal: Error, target: URL): TrawlError {
  const why = refusal instanceof ForbiddenAddressError ? `address ${refusal.address} is not allowed (${refusal.reason})` : refusal.message;
  // Origin and path only: a query string may carry what the provider meant for that address alone.
  return fetchFailed(`redirect to ${target.origin}${target.pathname} refused: ${why}`, refusal);
}

/** The request for the Location of a redirect, with method and credential rules browsers follow. */
export function nextHop(prev: HopRequest, status: number, location: string): HopRequest {
  let url: URL;
  try {
    url = new URL(location, prev.url);
  } catch {
    throw fetchFailed(`invalid redirect location ${JSON.stringify(location)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fetchFailed(`redirect to unsupported scheme ${url.protocol}`);
  const headers = { ...prev.headers };
  if (url.origin !== prev.url.origin) for (const h of ORIGIN_BOUND_HEADERS) delete headers[h];
  // 303 always, and 301/302 after a POST by long-standing browser practice, become a bodiless GET.
  const toGet = status === 303 ? prev.method !== 'HEAD' : (status === 301 || status === 302) && prev.method === 'POST';
  if (!toGet) return { url, method: prev.method, headers, body: prev.body, proxy: prev.proxy };
  delete headers['content-type'];
  delete headers['content-length'];
  return { url, method: 'GET', headers, proxy: prev.proxy };
}
