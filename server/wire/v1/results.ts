/**
 * The /v1 stored results' wire: the query strings of the lookup and the list, and the presenters of
 * a result (in the /v1 shape) and of its summary.
 */
import { z } from 'zod';
import { isScrapeResult } from '../../../core/features/crawl/legacy.ts';
import { LOOKUP_ENDPOINTS } from '../../../core/features/results/outputs.ts';
import type { StoredResult, StoredResultSummary } from '../../../core/services.ts';
import { pagedQuery } from '../../pagination.ts';
import { presentResult } from './present.ts';

const endpointName = z.string().min(1).max(64);
const lookupEndpoint = z.enum(LOOKUP_ENDPOINTS, { error: `endpoint must be one of: ${LOOKUP_ENDPOINTS.join(', ')}` });
export const lookupQuery = z.object({ endpoint: lookupEndpoint.default('scrape'), url: z.string().min(1).max(8192) });
export const listQuery = pagedQuery({ endpoint: endpointName.optional() });

export const presentResultSummary = (result: StoredResultSummary) => ({
  id: result.id,
  endpoint: result.endpoint,
  url: result.url,
  created_at: result.createdAt,
});
/** Outputs are stored in the internal model and shown in the /v1 shape (rows from before it are shown as stored). */
export const presentStoredResult = (result: StoredResult) => ({
  ...presentResultSummary(result),
  data: isScrapeResult(result.output) ? presentResult(result.output) : result.output,
});
