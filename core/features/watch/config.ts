/**
 * The `[watch]` section: limits of watches, their checks, their filters and how many snapshots are
 * kept, and the limits a workspace gets — the section's own in self-hosted mode, its plan's
 * (`[plans.*]`) in cloud mode.
 */
import { z } from 'zod';
import type { TrawlConfig } from '../../config-schema.ts';
import type { Account } from '../../storage/workspaces.ts';

export const watchConfigSchema = z
  .strictObject({
    /**
     * Self-hosted mode: watches per workspace; creating one more is a 409. A guard against runaway
     * scripts, not a capacity promise: cloud mode takes its plan's `maxWatches` instead.
     */
    maxPerWorkspace: z.number().int().min(1).default(5000),
    /** Self-hosted mode: the interval floor; cloud mode takes its plan's `minWatchIntervalMinutes`. */
    minIntervalMinutes: z.number().int().min(1).default(1),
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
    /** `include_selectors`, `trigger_text`, `block_text` and `tags` entries per watch. */
    maxFilterEntries: z.number().int().min(0).max(100).default(20),
    /** `conditions` per watch. */
    maxConditions: z.number().int().min(0).max(50).default(10),
    /** `only_new_lines`: hashes of lines seen before kept per watch (the oldest are forgotten first). */
    seenLinesKept: z.number().int().min(100).max(100_000).default(5000),
  })
  .refine(
    (c) => c.minIntervalMinutes <= c.defaultIntervalMinutes && c.defaultIntervalMinutes <= c.maxIntervalMinutes,
    'defaultIntervalMinutes must lie between minIntervalMinutes and maxIntervalMinutes',
  );

export type WatchSettings = z.output<typeof watchConfigSchema>;

/** What one workspace may create. */
export interface WatchLimits {
  maxPerWorkspace: number;
  minIntervalMinutes: number;
  maxIntervalMinutes: number;
  /** The default interval, raised to the floor when a plan's floor is above it. */
  defaultIntervalMinutes: number;
}

/** The section's limits (self-hosted), or the workspace plan's (cloud mode, an account known). */
export function watchLimits(
  settings: WatchSettings,
  config: Pick<TrawlConfig, 'mode' | 'plans'>,
  account: Pick<Account, 'plan'> | null,
): WatchLimits {
  const plan = config.mode === 'cloud' && account ? config.plans[account.plan] : null;
  const minIntervalMinutes = Math.min(plan?.minWatchIntervalMinutes ?? settings.minIntervalMinutes, settings.maxIntervalMinutes);
  return {
    maxPerWorkspace: plan?.maxWatches ?? settings.maxPerWorkspace,
    minIntervalMinutes,
    maxIntervalMinutes: settings.maxIntervalMinutes,
    defaultIntervalMinutes: Math.max(settings.defaultIntervalMinutes, minIntervalMinutes),
  };
}
