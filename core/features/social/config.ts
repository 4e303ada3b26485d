/** The `[social]` section: limits of social monitors, their checks and audience export. */
import { z } from 'zod';

export const socialConfigSchema = z
  .strictObject({
    /** Monitors per workspace; creating one more is a 409. */
    maxPerWorkspace: z.number().int().min(1).default(50),
    /** Requested intervals are clamped into this range (the spec clamps rather than refuses). */
    minIntervalMinutes: z.number().int().min(1).default(5),
    maxIntervalMinutes: z.number().int().min(1).default(10_080),
    defaultIntervalMinutes: z.number().int().min(1).default(15),
    /** Checks running at once per worker process. */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Tries per check (the source unreachable or failing) before the failure is recorded on the monitor. */
    maxAttempts: z.number().int().min(1).max(10).default(2),
    /** Posts per chat-platform message; more matches are sent as several messages. */
    chatPostsPerMessage: z.number().int().min(1).max(10).default(5),
  })
  .refine(
    (c) => c.minIntervalMinutes <= c.defaultIntervalMinutes && c.defaultIntervalMinutes <= c.maxIntervalMinutes,
    'defaultIntervalMinutes must lie between minIntervalMinutes and maxIntervalMinutes',
  );

export type SocialSettings = z.output<typeof socialConfigSchema>;
