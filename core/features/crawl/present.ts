/**
 * The public JSON shapes of crawls and batches: the run summary (status endpoints, history,
 * event payloads, the stream's final event) and one page result. Kept in one place so the API,
 * the SSE stream and webhook payloads cannot drift apart (server/openapi.ts documents them).
 */
import type { PageRow, RunRow } from './store.ts';

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
  });
  if (run.kind === 'crawl') {
    summary.error = run.error;
    if (run.retryOf) summary.retry_of = run.retryOf;
  }
  return summary;
}

/** A finished page: the scrape result plus `status` and `depth`; a failure carries `error` instead. */
export function pageItem(page: PageRow): Record<string, unknown> {
  if (page.outcome === 'failed') return { url: page.url, status: 'failed', depth: page.depth, error: page.error };
  return { url: page.url, status: 'completed', depth: page.depth, ...page.result };
}

/** Payload of crawl.completed, crawl.failed and batch.completed. */
export function eventPayload(run: RunRow): Record<string, unknown> {
  const { updated_at: _updated, ...payload } = runSummary(run);
  return payload;
}
