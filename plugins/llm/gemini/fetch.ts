/**
 * A `fetch` for @google/genai that goes through the core HTTP client (its `httpOptions.fetch`):
 * the SSRF guard with the configured-service rule, the body cap and the time limit apply to the
 * SDK's requests as to every other. It keeps the last response it saw, because the SDK's errors
 * carry the body but not the headers (Retry-After).
 */
import { callProvider } from '../../../core/kit.ts';
import type { FetchedResponse, HttpClient } from '../../../core/kit.ts';

export interface RecordingFetch {
  fetch: typeof fetch;
  /** The last response, for the error of a failed call. */
  last?: FetchedResponse;
}

export function clientFetch(http: HttpClient, timeoutMs: number, signal: AbortSignal): RecordingFetch {
  const recording: RecordingFetch = {
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = (init?.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'POST') throw new Error(`unexpected ${method} request from the Gemini client`);
      if (init?.body !== undefined && init.body !== null && typeof init.body !== 'string')
        throw new Error('unexpected non-text request body from the Gemini client');
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const response = await callProvider(http, url, {
        method,
        headers,
        body: init?.body ?? undefined,
        timeoutMs,
        signal: init?.signal ? AbortSignal.any([signal, init.signal]) : signal,
      });
      recording.last = response;
      // The client has decoded the body already: its encoding and length no longer describe it.
      const { 'content-encoding': _encoding, 'content-length': _length, ...kept } = response.headers;
      return new Response(response.body as Uint8Array<ArrayBuffer>, { status: response.status, headers: kept });
    }) as typeof fetch,
  };
  return recording;
}
