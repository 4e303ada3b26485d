/**
 * The default fetcher: a plain HTTP GET through the core HTTP client (SSRF guard, redirects,
 * timeouts, size cap, decompression and charset decoding all live there). It takes every job; the
 * browser fetcher, listed before it, claims the jobs that need rendering or actions.
 */
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin.ts';
import { Tokens } from '../../../core/services.ts';
import { fetchProxy } from '../../../core/fetch-attempts.ts';
import { retryAfterSeconds } from '../../../core/net/provider-http.ts';

const PLUGIN_ID = 'fetcher.http';

export const httpFetcher = definePlugin({
  kind: 'fetcher',
  name: 'http',
  description: 'Fetches pages and files over HTTP(S) without running JavaScript.',
  options: z.strictObject({
    headers: z
      .record(z.string(), z.string())
      .default({})
      .describe('Extra request headers for this fetcher, on top of `[fetch].headers` (these win on conflict).'),
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    return {
      matches: () => true,
      async fetch(doc) {
        const response = await http.request(doc.job.url, {
          headers: doc.job.request.headers ? { ...options.headers, ...doc.job.request.headers } : options.headers,
          signal: doc.job.signal,
          timeoutMs: doc.job.request.timeoutMs,
          proxy: fetchProxy(doc),
        });
        doc.response = response;
        doc.metadata.statusCode = response.status;
        doc.metadata.finalUrl = response.finalUrl;
        doc.metadata.contentType = response.headers['content-type'] ?? response.mediaType;
        const wait = response.status === 429 || response.status === 503 ? retryAfterSeconds(response.headers) : undefined;
        if (wait !== undefined) doc.metadata.retryAfterSeconds = wait;
        // HTTP error statuses are not fetch failures: a 404 or 503 page is what the site serves at
        // that URL, and users scraping or watching it want to see it (and a watch should notice a page
        // turning into an error page). So the body goes through the pipeline like any other; the
        // status is in metadata.statusCode and a warning says so. Only when no response arrives at
        // all (DNS, refused, TLS, timeout, cap, SSRF guard) does the client throw `fetch_failed`.
        if (response.status >= 400) doc.warn('fetch', PLUGIN_ID, `The server answered HTTP ${response.status}`);
        ctx.logger.debug({ url: doc.job.url, status: response.status, finalUrl: response.finalUrl }, 'fetched');
      },
    };
  },
});
