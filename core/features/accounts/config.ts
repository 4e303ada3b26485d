/** The `[accounts]` section: how long cloud mode keeps its usage log. */
import { z } from 'zod';

export const accountsConfigSchema = z.strictObject({
  /** Usage rows older than this many days are deleted (0 keeps them forever). */
  usageRetentionDays: z.number().int().min(0).max(36_500).default(400),
  /** How often each API or worker process deletes them. */
  pruneIntervalMinutes: z.number().int().min(1).max(10_080).default(60),
});

export type AccountsSettings = z.output<typeof accountsConfigSchema>;
