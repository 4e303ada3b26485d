/** The /v2 run wire besides the request bodies (request.ts): the query string that pages a run's status. */
import { z } from 'zod';

/** Documents one status page holds by default and at most. */
export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 1000;
export const pageQuery = z.object({
  skip: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
});
