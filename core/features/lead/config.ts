/** The `[lead]` section: how much of a site one lead reads, and how lead batches run. */
import { z } from 'zod';

export const leadConfigSchema = z.strictObject({
  /** Pages read besides the given one (its about, contact, imprint and team pages, found by link). */
  maxPages: z.number().int().min(0).max(8).default(4),
  /** Those pages scraped at once per lead. */
  pageConcurrency: z.number().int().min(1).max(8).default(4),
  /** Leads of batches worked on at once per process. */
  batchConcurrency: z.number().int().min(1).max(32).default(2),
  /** Tries per batch URL (a page that cannot be fetched is a per-URL error, not retried). */
  maxAttempts: z.number().int().min(1).max(10).default(3),
});

export type LeadSettings = z.output<typeof leadConfigSchema>;
