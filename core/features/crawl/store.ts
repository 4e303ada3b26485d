/**
 * Rows of crawls and batches (`crawls`) and their frontier/results (`crawl_urls`): creation with
 * the seed pages and their jobs in one transaction, reads scoped to a workspace, pagination in
 * completion order, and cancellation. The records read from the rows are in rows.ts; recording
 * a finished page is in record.ts.
 */
import type { Selectable } from 'kysely';
import type { JobSpec } from '../../services.ts';
import type { CrawlDb, CrawlExecutor, CrawlsTable } from './tables.ts';
import { insertRows, nowIso, readInt } from '../../storage/values.ts';
import { ACTIVE_STATUSES, pageJob, toPageRow, toRunRow, type PageRow, type RunKind, type RunRow } from './rows.ts';
import type { CrawlUrl } from './urls.ts';

export async function insertFrontier(
  db: CrawlExecutor,
  crawlId: string,
  urls: readonly CrawlUrl[],
  depth: number,
  state = 'queued',
): Promise<void> {
  const rows = urls.map((u) => ({
    crawl_id: crawlId,
    url_hash: u.hash,
    url: u.url,
    depth,
    state,
    seq: null,
    outcome: null,
    result: null,
    error: null,
    finished_at: null,
  }));
  await insertRows(db, 'crawl_urls', rows);
}

export type NewRun = Pick<RunRow, 'id' | 'workspace' | 'kind' | 'url' | 'request' | 'scopeHosts' | 'retryOf'> & { seeds: CrawlUrl[] };

/** Routes validate page sizes; the store still never reads unbounded. */
const ROWS_MAX = 1000;

export function createCrawlStore(db: CrawlDb) {
  const scoped = (workspace: string, kind: RunKind, id: string) =>
    db.selectFrom('crawls').selectAll().where('id', '=', id).where('workspace_id', '=', workspace).where('kind', '=', kind);

  return {
    /** The run row, its seed rows and their jobs, all or nothing. */
    async create(run: NewRun, insertJobs: (db: CrawlExecutor, specs: JobSpec[]) => Promise<unknown>, maxAttempts: number): Promise<RunRow> {
      const now = nowIso();
      const row: Selectable<CrawlsTable> = {
        id: run.id,
        workspace_id: run.workspace,
        kind: run.kind,
        url: run.url,
        request: JSON.stringify(run.request),
        scope_hosts: JSON.stringify(run.scopeHosts),
        status: 'queued',
        admitted: run.seeds.length,
        waiting: 0,
        completed: 0,
        failed: 0,
        seq: 0,
        error: null,
        retry_of: run.retryOf,
        created_at: now,
        updated_at: now,
        completed_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('crawls').values(row).execute();
        await insertFrontier(trx, run.id, run.seeds, 0);
        await insertJobs(
          trx,
          run.seeds.map((seed) => pageJob(run, seed, 0, maxAttempts)),
        );
      });
      return toRunRow(row);
    },

    async get(workspace: string, kind: RunKind, id: string): Promise<RunRow | null> {
      const row = await scoped(workspace, kind, id).executeTakeFirst();
      return row ? toRunRow(row) : null;
    },

    /** For workers, which act on behalf of whichever workspace queued the job. */
    async byId(id: string): Promise<RunRow | null> {
      const row = await db.selectFrom('crawls').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRunRow(row) : null;
    },

    /** Newest first; `endedAfter` leaves out runs that ended at or before it (expired ones, retention.ts). */
    async list(
      workspace: string,
      kind: RunKind,
      query: { offset: number; limit: number; endedAfter?: string | null },
    ): Promise<{ items: RunRow[]; total: number }> {
      const { endedAfter } = query;
      const base = db
        .selectFrom('crawls')
        .where('workspace_id', '=', workspace)
        .where('kind', '=', kind)
        .$if(typeof endedAfter === 'string', (q) =>
          q.where((eb) => eb.or([eb('completed_at', 'is', null), eb('completed_at', '>', endedAfter!)])),
        );
      const [counted, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(Math.min(Math.max(query.limit, 1), ROWS_MAX))
          .offset(Math.max(query.offset, 0))
          .execute(),
      ]);
      return { items: rows.map(toRunRow), total: readInt(counted.total) };
    },

    /** The workspace's queued and running runs of one kind, newest first. */
    async active(workspace: string, kind: RunKind, limit: number): Promise<RunRow[]> {
      const rows = await db
        .selectFrom('crawls')
        .selectAll()
        .where('workspace_id', '=', workspace)
        .where('kind', '=', kind)
        .where('status', 'in', [...ACTIVE_STATUSES])
        .orderBy('created_at', 'desc')
        .limit(Math.min(Math.max(limit, 1), ROWS_MAX))
        .execute();
      return rows.map(toRunRow);
    },

    /** Finished pages in completion order; `outcome` narrows to completed or failed ones. */
    async pages(crawlId: string, query: { offset: number; limit: number; outcome?: PageRow['outcome'] }): Promise<PageRow[]> {
      const rows = await db
        .selectFrom('crawl_urls')
        .select(['seq', 'url', 'depth', 'outcome', 'result', 'error'])
        .where('crawl_id', '=', crawlId)
        .where('seq', 'is not', null)
        .$if(query.outcome !== undefined, (q) => q.where('outcome', '=', query.outcome!))
        .orderBy('seq')
        .limit(Math.min(Math.max(query.limit, 1), ROWS_MAX))
        .offset(Math.max(query.offset, 0))
        .execute();
      return rows.map(toPageRow);
    },

    /** Pages finished after `seq`, in order: what an SSE client has not seen yet. */
    async pagesAfter(crawlId: string, seq: number, limit: number): Promise<PageRow[]> {
      const rows = await db
        .selectFrom('crawl_urls')
        .select(['seq', 'url', 'depth', 'outcome', 'result', 'error'])
        .where('crawl_id', '=', crawlId)
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map(toPageRow);
    },

    /** A page job's run and frontier row, in one read. */
    async pageContext(crawlId: string, hash: string): Promise<{ run: RunRow; url: string; depth: number; state: string } | null> {
      const row = await db
        .selectFrom('crawls')
        .innerJoin('crawl_urls', 'crawl_urls.crawl_id', 'crawls.id')
        .selectAll('crawls')
        .select(['crawl_urls.url as page_url', 'crawl_urls.depth as page_depth', 'crawl_urls.state as page_state'])
        .where('crawls.id', '=', crawlId)
        .where('crawl_urls.url_hash', '=', hash)
        .executeTakeFirst();
      if (!row) return null;
      const { page_url: url, page_depth: depth, page_state: state, ...run } = row;
      return { run: toRunRow(run), url, depth: readInt(depth), state };
    },

    async markScraping(id: string): Promise<void> {
      await db
        .updateTable('crawls')
        .set({ status: 'scraping', updated_at: nowIso() })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
    },

    /**
     * Active → failed with `error` (the workspace ran out of credits), and the job announcing it, in
     * one transaction; the run's row afterwards, or null when it was no longer active.
     */
    async fail(
      id: string,
      error: (run: RunRow) => string,
      insertJobs: (db: CrawlExecutor, specs: JobSpec[]) => Promise<unknown>,
      notifyKind: string,
    ): Promise<RunRow | null> {
      return db.transaction().execute(async (trx) => {
        const now = nowIso();
        const locked = await trx
          .updateTable('crawls')
          .set({ updated_at: now })
          .where('id', '=', id)
          .where('status', 'in', [...ACTIVE_STATUSES])
          .returningAll()
          .executeTakeFirst();
        if (!locked) return null;
        const row = await trx
          .updateTable('crawls')
          .set({ status: 'failed', error: error(toRunRow(locked)), completed_at: now })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await insertJobs(trx, [{ kind: notifyKind, workspace: row.workspace_id, payload: { crawl: id }, maxAttempts: 10 }]);
        return toRunRow(row);
      });
    },

    /** Active → cancelled; answers what the run's status is afterwards, or null when it does not exist. */
    async cancel(workspace: string, kind: RunKind, id: string): Promise<RunRow | null> {
      const now = nowIso();
      await db
        .updateTable('crawls')
        .set({ status: 'cancelled', updated_at: now, completed_at: now })
        .where('id', '=', id)
        .where('workspace_id', '=', workspace)
        .where('kind', '=', kind)
        .where('status', 'in', [...ACTIVE_STATUSES])
        .execute();
      return this.get(workspace, kind, id);
    },
  };
}

export type CrawlStore = ReturnType<typeof createCrawlStore>;
