/**
 * twitter-api-v2 over Trawl's HTTP client. The library builds each request (path, query string,
 * bearer header) and would send it with node:https; its `onBeforeRequestConfig` hook may answer a
 * request itself, so every call is sent here instead, through the core client with the
 * configured-service rule (the operator's `baseUrl` origin may be private, redirects elsewhere are
 * refused) and its time and size limits. Non-2xx answers become TrawlErrors: a 429 rate limit
 * carries the seconds until `x-rate-limit-reset`, so a check waits for it instead of failing.
 */
import { TwitterApi, type ITwitterApiClientPlugin } from 'twitter-api-v2';
import { callProvider, detail, errorJson, jsonOf, providerError, quotaSpent, TrawlError } from '../../../core/kit.ts';
import type { HttpClient } from '../../../core/kit.ts';

/** Where the library sends requests; replaced by the configured base URL. */
const LIBRARY_ORIGIN = 'https://api.x.com';
/** A limit without a usable reset header is asked again after this long. */
const DEFAULT_RESET_SECONDS = 60;

export interface TransportOptions {
  http: HttpClient;
  bearerToken: string;
  baseUrl: string;
  timeoutMs: number;
  /** The clock the reset header is compared with (epoch ms). */
  now?: () => number;
}

/** Seconds until the `x-rate-limit-reset` epoch (at least 1), or the default. */
export function secondsUntilReset(headers: Record<string, string>, now: number): number {
  const reset = Number(headers['x-rate-limit-reset']);
  if (!Number.isFinite(reset) || reset <= 0) return DEFAULT_RESET_SECONDS;
  return Math.max(1, Math.ceil(reset - now / 1000));
}

/** The API's problem body in words: `title: detail`, or the older `errors[0].message`. */
function problemOf(body: Record<string, unknown> | null): { said: string; type: string } {
  if (!body) return { said: '', type: '' };
  const errors = Array.isArray(body.errors) ? (body.errors as Array<Record<string, unknown>>) : [];
  const said = [body.title, body.detail].filter((v) => typeof v === 'string' && v).join(': ') || String(errors[0]?.message ?? '');
  return { said: detail(said), type: typeof body.type === 'string' ? body.type : '' };
}

function failure(status: number, headers: Record<string, string>, body: Record<string, unknown> | null, now: number): TrawlError {
  const { said, type } = problemOf(body);
  const why = said ? `: ${said}` : '';
  // A spent usage cap or credit balance does not come back at the reset: the operator must act.
  if (status === 402 || type.endsWith('/usage-capped'))
    return quotaSpent(`the social API refused: its usage cap or credits are spent (HTTP ${status}${why})`);
  if (status === 429) {
    const wait = secondsUntilReset(headers, now);
    return new TrawlError('rate_limited', `the social API's rate limit is reached (HTTP 429${why}); retry after ${wait} s`, {
      retryAfterSeconds: wait,
    });
  }
  if (status === 401 || status === 403) return providerError(`the social API rejected the bearer token (HTTP ${status}${why})`);
  if (status === 404) return new TrawlError('not_found', `the social API does not know it (HTTP 404${why})`);
  if (status === 400) return new TrawlError('bad_request', `the social API refused the request (HTTP 400${why})`);
  return providerError(`the social API answered HTTP ${status}${why}`);
}

/** A client whose requests for this call go through `http`, ending with `signal`. */
export function transportClient(options: TransportOptions, signal: AbortSignal): TwitterApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const transport: ITwitterApiClientPlugin = {
    async onBeforeRequestConfig({ client, params }) {
      // The library's own request builder: query string, path parameters and the bearer header.
      const args = (
        client as unknown as { getHttpRequestArgs(p: typeof params): { url: URL; method: string; headers: Record<string, string> } }
      ).getHttpRequestArgs(params);
      const url = `${base}${args.url.href.slice(LIBRARY_ORIGIN.length)}`;
      const response = await callProvider(options.http, url, {
        method: 'GET',
        headers: args.headers,
        timeoutMs: options.timeoutMs,
        signal,
      });
      if (response.status >= 300) throw failure(response.status, response.headers, errorJson(response), now());
      const data = jsonOf(response);
      return { data, headers: response.headers, rateLimit: undefined } as never;
    },
  };
  return new TwitterApi(options.bearerToken, { plugins: [transport] });
}
