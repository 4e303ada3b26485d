/** The `[endpoints]` section: how much one endpoint-discovery request may fetch and parse. */
import { z } from 'zod';

export const endpointsConfigSchema = z.strictObject({
  /** Each bundle is read up to this many bytes; a longer one is scanned as far as read, with a warning. */
  maxBundleBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Source maps fetched per request (the first bundles that name one). */
  maxSourceMaps: z.number().int().min(0).max(20).default(5),
  /** A larger source map is skipped with a warning (it is JSON: cut short, it cannot be read). */
  maxSourceMapBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** Bundles and maps fetched at once. */
  concurrency: z.number().int().min(1).max(20).default(4),
  /** Whole request, the page's scrape included. */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Parsing one source (a bundle, an inline script, an original file of a map); past it the worker is stopped and the request fails. */
  scanTimeoutMs: z.number().int().positive().default(10_000),
  /** Endpoints returned at most (after de-duplication). */
  maxEndpoints: z.number().int().positive().default(5000),
});

export type EndpointsSettings = z.output<typeof endpointsConfigSchema>;
