/**
 * Records one finished page of a crawl or batch in a single transaction: the page's result and
 * its sequence number, the links it admits to the frontier (with their jobs), the run's counters
 * and — when this was the last pending page — the end state and the job that announces it.
 *
 * Why one transaction, and why it starts by updating the run row: that update locks the row, so
 * recordings of one run are serialised (on Postgres by the row lock, on SQLite by its single
 * writer). Under that lock `max_pages` is exact (admission counts against `admitted`), sequence
 * numbers are gap-free in commit order (an SSE client never misses a page by reading between two
 * commits), and "finished" is decided once. The frontier row's state makes recording idempotent:
 * a page scraped twice (a lapsed lease, a released job) is recorded once.
 */
import type { ScrapeResult } from '../../model/result.ts';
import type { JobSpec } from '../../services.ts';
import type { CrawlDb, CrawlExecutor } from './tables.ts';
import { nowIso } from '../../storage/values.ts';
import { ACTIVE_STATUSES, toRunRow, type RunRow, type RunStatus } from './rows.ts';
import { insertFrontier } from './store.ts';
import { admit, known } from './admit.ts';
import type { CrawlUrl } from './urls.ts';

export const NOTIFY_JOB = 'crawl.notify';

export interface PageOutcome {
  crawlId: string;
  urlHash: string;
  outcome: 'completed' | 'failed';
  /** Stored as it is; each wire format presents it on the way out. */
  result?: ScrapeResult;
  error?: string;
  /** Where the page redirected to, when that is another URL. */
  redirect?: CrawlUrl;
  /** The page redirected out of the crawl's scope: it is dropped, like a duplicate, and its slot given back. */
  outOfScope?: boolean;
  /** Links to admit one level deeper, already filtered by scope, robots and depth; unique. */
  links: readonly CrawlUrl[];
  /** Replaces the run's own hosts (the start page redirected to another host). */
  scopeHosts?: string[];
  maxPages: number;
  maxAttempts: number;
}

export interface RecordResult {
  /** False when the page was already recorded or the run is no longer active. */
  recorded: boolean;
  /** Recorded as dropped: it redirected onto a URL the run has, or out of its scope; not one of its pages. */
  dropped?: boolean;
  /** New frontier rows (and jobs). */
  queued: number;
  /** The run when this page finished it. */
  finished: RunRow | null;
}

const NOT_RECORDED: RecordResult = { recorded: false, queued: 0, finished: null };

export function recordPage(
  db: CrawlDb,
  insertJobs: (db: CrawlExecutor, specs: JobSpec[]) => Promise<unknown>,
  input: PageOutcome,
): Promise<RecordResult> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const locked = await trx
      .updateTable('crawls')
      .set({ updated_at: now })
      .where('id', '=', input.crawlId)
      .where('status', 'in', [...ACTIVE_STATUSES])
      .returningAll()
      .executeTakeFirst();
    if (!locked) return NOT_RECORDED;
    const run = toRunRow(locked);
    let { seq, completed, failed, admitted, error } = run;
    seq++;
    // Claims the frontier row: only a row still queued is recorded, so a page scraped twice counts once.
    const self = await trx
      .updateTable('crawl_urls')
      .set({
        state: 'done',
        seq,
        outcome: input.outcome,
        result: input.result ? JSON.stringify(input.result) : null,
        error: input.error ?? null,
        finished_at: now,
      })
      .where('crawl_id', '=', run.id)
      .where('url_hash', '=', input.urlHash)
      .where('state', '=', 'queued')
      .returning('depth')
      .executeTakeFirst();
    if (!self) return NOT_RECORDED;
    const depth = Number(self.depth);

    // A page that redirected onto a URL the run already has, or out of its scope, is dropped and gives its slot back.
    let dropped: 'duplicate' | 'out_of_scope' | null = input.outOfScope ? 'out_of_scope' : null;
    let waiting = Number(locked.waiting ?? 0);
    if (!dropped && input.redirect && input.redirect.hash !== input.urlHash) {
      const target = (await known(trx, run.id, [input.redirect.hash])).get(input.redirect.hash);
      if (target?.state === 'waiting') {
        // The target was still waiting for a slot: this page is it, and it need not be fetched again.
        await trx
          .updateTable('crawl_urls')
          .set({ state: 'alias' })
          .where('crawl_id', '=', run.id)
          .where('url_hash', '=', input.redirect.hash)
          .execute();
        waiting = Math.max(0, waiting - 1);
      } else if (target) dropped = 'duplicate';
      else await insertFrontier(trx, run.id, [input.redirect], depth, 'alias');
    }
    if (dropped) {
      seq--;
      admitted--;
      await trx
        .updateTable('crawl_urls')
        .set({ state: dropped, seq: null, outcome: null, result: null, error: null })
        .where('crawl_id', '=', run.id)
        .where('url_hash', '=', input.urlHash)
        .execute();
    }

    const frontier = await admit(trx, insertJobs, {
      run,
      depth,
      links: dropped ? [] : input.links,
      admitted,
      waiting,
      maxPages: input.maxPages,
      maxAttempts: input.maxAttempts,
    });
    admitted = frontier.admitted;
    const queued = frontier.queued;

    if (!dropped) {
      if (input.outcome === 'completed') completed++;
      else failed++;
      if (input.outcome === 'failed' && depth === 0 && run.kind === 'crawl') error = input.error ?? 'The start page failed';
    }
    const done = completed + failed === admitted;
    // A crawl in which not a single page could be scraped failed; a batch reports per-URL failures.
    const status: RunStatus = !done ? 'scraping' : run.kind === 'crawl' && completed === 0 ? 'failed' : 'completed';
    const updated = await trx
      .updateTable('crawls')
      .set({
        status,
        seq,
        completed,
        failed,
        admitted,
        waiting: frontier.waiting,
        error,
        updated_at: now,
        completed_at: done ? now : null,
        ...(input.scopeHosts ? { scope_hosts: JSON.stringify(input.scopeHosts) } : {}),
      })
      .where('id', '=', run.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (done) await insertJobs(trx, [{ kind: NOTIFY_JOB, workspace: run.workspace, payload: { crawl: run.id }, maxAttempts: 10 }]);
    return { recorded: true, ...(dropped ? { dropped: true } : {}), queued, finished: done ? toRunRow(updated) : null };
  });
}
