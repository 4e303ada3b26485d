/**
 * The default fetcher: a plain HTTP GET through the core HTTP client (SSRF guard, redirects,
 * timeouts, size cap, decompression and charset decoding all live there). It takes every job; the
 * browser fetcher, listed before it, claims the jobs that need rendering or actions.
 */
import { z } from 'zod';
import { definePlugin, fetchProxy, Tokens } from '../../../core/kit.ts';

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
        // Only when no response arrives at all (DNS, refused, TLS, timeout, cap, SSRF guard) does the
        // client throw `fetch_failed`; an error status is a page like any other (recordResponse).
        doc.recordResponse(response, PLUGIN_ID);
        ctx.logger.debug({ url: doc.job.url, status: response.status, finalUrl: response.finalUrl }, 'fetched');
      },
    };
  },
});
