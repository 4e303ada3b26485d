/** The `[map]` section: how much sitemap discovery one request may do. */
import { z } from 'zod';

export const mapConfigSchema = z.strictObject({
  /** Sitemap and feed documents fetched per request, indexes included. */
  maxSitemaps: z.number().int().min(1).max(1000).default(50),
  /** Nesting of sitemap indexes followed below the first level. */
  maxSitemapDepth: z.number().int().min(0).max(10).default(3),
  /** Cap on each sitemap after decompression; parsing costs ~0.15 s and tens of MB per 1 MB. */
  maxSitemapBytes: z
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  /** Whole-request deadline; what was found by then is returned. */
  timeoutMs: z.number().int().positive().default(30_000),
});

export type MapSettings = z.output<typeof mapConfigSchema>;
