/** The /v1 usage wire: the query string of GET /v1/usage (a range, an endpoint, a page) and the presenter of one run. */
import { z } from 'zod';
import type { UsageRun } from '../../../core/features/accounts/usage.ts';
import { pagedQuery } from '../../pagination.ts';

/** The longest range one query may ask for. */
export const MAX_RANGE_DAYS = 366;

const instant = z
  .string()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date or time')
  .transform((v) => new Date(Date.parse(v)));
export const usageQuery = pagedQuery({
  from: instant.optional(),
  to: instant.optional(),
  endpoint: z.string().min(1).max(64).optional(),
});

export const presentRun = (run: UsageRun) => ({
  id: run.id,
  endpoint: run.endpoint,
  url: run.url,
  credits: run.credits,
  status: run.status,
  error: run.error,
  duration_ms: run.durationMs,
  result_id: run.resultId,
  run_id: run.runId,
  created_at: run.createdAt,
  finished_at: run.finishedAt,
});
