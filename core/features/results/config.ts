/** The `[results]` section: how long stored outputs are kept and how large one may be. */
import { z } from 'zod';

export const resultsConfigSchema = z.strictObject({
  /**
   * Days a stored output (a scrape, a map, a billed call's answer) is kept; then retention.ts deletes
   * it and GET /v1/results/{id} is a 404. 0 keeps outputs forever.
   */
  retentionDays: z.number().int().min(0).max(36_500).default(30),
  /**
   * Largest answer a billed call stores, in bytes of its JSON: a larger one is answered in full but
   * not stored (its run then has no result to read again), so one call cannot fill the database.
   */
  maxOutputBytes: z
    .number()
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .default(5 * 1024 * 1024),
});

export type ResultsSettings = z.output<typeof resultsConfigSchema>;
