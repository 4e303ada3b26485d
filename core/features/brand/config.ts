/** The `[brand]` section: what POST /v1/brand reads besides the page. */
import { z } from 'zod';

export const brandConfigSchema = z.strictObject({
  /** Measure the rendered page's colours and fonts in the browser (when the browser fetcher is enabled and Chromium runs). */
  browser: z.boolean().default(true),
  /** Linked stylesheets fetched per page, in page order. */
  maxStylesheets: z.number().int().min(0).max(20).default(6),
  /** CSS read at most per page, inline and linked together; a longer stylesheet is cut. */
  maxCssBytes: z
    .number()
    .int()
    .min(10_000)
    .max(10 * 1024 * 1024)
    .default(1024 * 1024),
  /** Each stylesheet's and the manifest's fetch. */
  assetTimeoutMs: z.number().int().min(500).max(60_000).default(10_000),
});

export type BrandSettings = z.output<typeof brandConfigSchema>;
