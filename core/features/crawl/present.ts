/**
 * The public JSON shapes of crawls and batches: the run summary (status endpoints, history,
 * event payloads, the stream's final event) and one page result, whose scrape result the caller's
 * wire format presents. Kept in one place so the API, the SSE stream and webhook payloads cannot
 * drift apart (server/openapi.ts documents them).
 */
import type { ScrapeResult } from '../../model/result.ts';
import { isScrapeResult } from './legacy.ts';
import type { PageRow, RunRow } from './rows.ts';

/** How a wire format shows a scrape result. */
export type PresentResult = (result: ScrapeResult) => Record<string, unknown>;

export const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled'] as const;
export const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);

export function runSummary(run: RunRow): Record<string, unknown> {
  const summary: Record<string, unknown> = { id: run.id, status: run.status };
  if (run.kind === 'crawl') summary.url = run.url;
  Object.assign(summary, {
    total: run.admitted,
    completed: run.completed,
    failed: run.failed,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    completed_at: run.completedAt,
    // When the run is deleted (retention.ts); null when runs are kept forever.
    expires_at: run.expiresAt ?? null,
  });
  if (run.kind === 'crawl') {
    summary.error = run.error;
    if (run.retryOf) summary.retry_of = run.retryOf;
  } else if (run.error) {
    // A batch reports failures per URL; its own error is only ever a stop (out of credits).
    summary.error = run.error;
  }
  return summary;
}

/**
 * A finished page: the presented scrape result plus `status` and `depth`; a failure carries
 * `error` instead. A result stored by older code is already a /v1 response and is shown as stored.
 */
export function pageItem(page: PageRow, present: PresentResult): Record<string, unknown> {
  if (page.outcome === 'failed') return { url: page.url, status: 'failed', depth: page.depth, error: page.error };
  const result = page.result ?? {};
  return { url: page.url, status: 'completed', depth: page.depth, ...(isScrapeResult(result) ? present(result) : result) };
}

/** Payload of crawl.completed, crawl.failed and batch.completed. */
export function eventPayload(run: RunRow): Record<string, unknown> {
  const { updated_at: _updated, ...payload } = runSummary(run);
  return payload;
}
