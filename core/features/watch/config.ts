/** The `[watch]` section: limits of watches, their checks and how many snapshots are kept. */
import { z } from 'zod';

export const watchConfigSchema = z.strictObject({
  /** Watches per workspace; creating one more is a 409. */
  maxPerWorkspace: z.number().int().min(1).default(20),
  minIntervalMinutes: z.number().int().min(1).default(60),
  maxIntervalMinutes: z.number().int().min(1).default(10_080),
  defaultIntervalMinutes: z.number().int().min(1).default(1440),
  /** Snapshots kept per watch; older ones are pruned after each check. */
  snapshotRetention: z.number().int().min(2).max(10_000).default(100),
  /** Checks running at once per worker process. */
  concurrency: z.number().int().min(1).max(256).default(8),
  /** Tries per check (no response, time limit, HTTP 429/5xx) before the failure is recorded on the watch. */
  maxAttempts: z.number().int().min(1).max(10).default(2),
  /** `ignore_selectors` and `ignore_text` entries per watch. */
  maxIgnoreEntries: z.number().int().min(0).max(100).default(20),
}).refine((c) => c.minIntervalMinutes <= c.defaultIntervalMinutes && c.defaultIntervalMinutes <= c.maxIntervalMinutes,
  'defaultIntervalMinutes must lie between minIntervalMinutes and maxIntervalMinutes');

export type WatchSettings = z.output<typeof watchConfigSchema>;
