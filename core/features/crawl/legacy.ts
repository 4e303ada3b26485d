/**
 * Rows written before the internal model (runs in flight across an upgrade): their stored
 * request is the /v1 body and their page results are /v1 responses. Requests are upgraded when
 * read, so such a run keeps going (and can be retried); page results already in the /v1 shape are
 * served as they are (they are exactly what /v1 answered then). Nothing here is a wire format:
 * it is the old storage layout, frozen, and can go once no such run is kept.
 */
import type { ScrapeResult } from '../../model/result.ts';
import type { CrawlRequest, StoredBatch } from './schema.ts';
import type { RunKind } from './rows.ts';

/** The only stored name that did not follow the snake_case rule. */
const RENAMED: Record<string, string> = { timeout: 'timeoutMs' };

const camel = (name: string) => RENAMED[name] ?? name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function camelKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [camel(key), value]));
}

/** The stored request of a run in the internal shape, whichever code wrote it. */
export function storedRequest(kind: 'crawl', request: Record<string, unknown>): CrawlRequest;
export function storedRequest(kind: 'batch', request: Record<string, unknown>): StoredBatch;
export function storedRequest(kind: RunKind, request: Record<string, unknown>): CrawlRequest | StoredBatch;
export function storedRequest(kind: RunKind, request: Record<string, unknown>): CrawlRequest | StoredBatch {
  if ('scrapeOptions' in request) return request as unknown as CrawlRequest | StoredBatch;
  if (kind === 'crawl') {
    const { scrape_options: options, ...rest } = request;
    return { ...camelKeys(rest), scrapeOptions: camelKeys((options ?? {}) as Record<string, unknown>) } as unknown as CrawlRequest;
  }
  // Old batches stored the flat /v1 body without `urls` (those live on as frontier rows).
  const { webhook_url: webhookUrl, ...options } = request;
  return { ...(typeof webhookUrl === 'string' ? { webhookUrl } : {}), scrapeOptions: camelKeys(options) } as unknown as StoredBatch;
}

/** A stored page result in the internal shape; false for one stored as a /v1 response by older code. */
export function isScrapeResult(result: Record<string, unknown>): result is Record<string, unknown> & ScrapeResult {
  // `formats` is never a field of a /v1 response (no format is called that), always one of ScrapeResult.
  return typeof result.formats === 'object' && result.formats !== null && Array.isArray(result.warnings);
}
