/** The /v1 crawl wire besides the request bodies (request.ts): the query strings of a run's pages and of its event stream. */
import { z } from 'zod';
import { pagedQuery } from '../../pagination.ts';

/** Where a reconnecting event stream resumes (the `Last-Event-ID` header wins over it). */
export const resumeQuery = z.object({ last_event_id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0) });
export type ResumeQuery = z.output<typeof resumeQuery>;
export const pagesQuery = pagedQuery({ status: z.enum(['completed', 'failed']).optional() });
