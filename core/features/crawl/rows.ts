/**
 * What a crawl or batch run (`crawls`) and a finished page (`crawl_urls`) are, read from their
 * rows through values.ts, and the job that scrapes one frontier row. The queries are in store.ts.
 */
import type { Selectable } from 'kysely';
import type { JobSpec } from '../../services.ts';
import { readInt, readJson } from '../../storage/values.ts';
import type { CrawlsTable, CrawlUrlsTable } from './tables.ts';
import type { CrawlUrl } from './urls.ts';

export type RunKind = 'crawl' | 'batch';
export type RunStatus = 'queued' | 'scraping' | 'completed' | 'failed' | 'cancelled';
export const ACTIVE_STATUSES: readonly RunStatus[] = ['queued', 'scraping'];
export const PAGE_JOB = 'crawl.page';

export interface RunRow {
  id: string;
  workspace: string;
  kind: RunKind;
  url: string | null;
  request: Record<string, unknown>;
  scopeHosts: string[];
  status: RunStatus;
  admitted: number;
  completed: number;
  failed: number;
  seq: number;
  error: string | null;
  retryOf: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  /**
   * When the run is deleted (retention.ts): set on the runs the service answers with, absent on
   * rows read for workers; null when runs are kept forever.
   */
  expiresAt?: string | null;
}

export interface PageRow {
  seq: number;
  url: string;
  depth: number;
  outcome: 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: string | null;
}

export function toRunRow(row: Selectable<CrawlsTable>): RunRow {
  return {
    id: row.id,
    workspace: row.workspace_id,
    kind: row.kind as RunKind,
    url: row.url,
    request: readJson<Record<string, unknown>>(row.request),
    scopeHosts: readJson<string[]>(row.scope_hosts),
    status: row.status as RunStatus,
    admitted: readInt(row.admitted),
    completed: readInt(row.completed),
    failed: readInt(row.failed),
    seq: readInt(row.seq),
    error: row.error,
    retryOf: row.retry_of,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}

export function toPageRow(row: Pick<Selectable<CrawlUrlsTable>, 'seq' | 'url' | 'depth' | 'outcome' | 'result' | 'error'>): PageRow {
  return {
    seq: readInt(row.seq),
    url: row.url,
    depth: readInt(row.depth),
    outcome: row.outcome as PageRow['outcome'],
    result: row.result === null ? null : readJson<Record<string, unknown>>(row.result),
    error: row.error,
  };
}

/** The job that scrapes one frontier row; the row, not the payload, holds URL and depth. */
export function pageJob(run: { id: string; workspace: string }, url: CrawlUrl, depth: number, maxAttempts: number): JobSpec {
  return {
    kind: PAGE_JOB,
    workspace: run.workspace,
    group: run.id,
    priority: depth,
    key: url.host,
    maxAttempts,
    payload: { crawl: run.id, url: url.hash },
  };
}
