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
import { ACTIVE_STATUSES, insertFrontier, pageJob, toRunRow, type RunRow, type RunStatus } from './store.ts';
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
  /** New frontier rows (and jobs). */
  queued: number;
  /** The run when this page finished it. */
  finished: RunRow | null;
}

const NOT_RECORDED: RecordResult = { recorded: false, queued: 0, finished: null };

/** Frontier rows among `hashes`, with their state and depth. */
async function known(db: CrawlExecutor, crawlId: string, hashes: string[]): Promise<Map<string, { depth: number; state: string }>> {
  const found = new Map<string, { depth: number; state: string }>();
  for (let i = 0; i < hashes.length; i += 500) {
    const rows = await db.selectFrom('crawl_urls').select(['url_hash', 'depth', 'state'])
      .where('crawl_id', '=', crawlId).where('url_hash', 'in', hashes.slice(i, i + 500)).execute();
    for (const row of rows) found.set(row.url_hash, { depth: Number(row.depth), state: row.state });
  }
  return found;
}

export function recordPage(db: CrawlDb, insertJobs: (db: CrawlExecutor, specs: JobSpec[]) => Promise<unknown>, input: PageOutcome): Promise<RecordResult> {
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
      .set({ state: 'done', seq, outcome: input.outcome, result: input.result ? JSON.stringify(input.result) : null, error: input.error ?? null, finished_at: now })
      .where('crawl_id', '=', run.id)
      .where('url_hash', '=', input.urlHash)
      .where('state', '=', 'queued')
      .returning('depth')
      .executeTakeFirst();
    if (!self) return NOT_RECORDED;
    const depth = Number(self.depth);

    let duplicate = false;
    if (input.redirect && input.redirect.hash !== input.urlHash) {
      if ((await known(trx, run.id, [input.redirect.hash])).size > 0) {
        // Another page already is (or will be) that URL: drop this one and give back its slot.
        duplicate = true;
        seq--;
        admitted--;
        await trx.updateTable('crawl_urls').set({ state: 'duplicate', seq: null, outcome: null, result: null, error: null })
          .where('crawl_id', '=', run.id).where('url_hash', '=', input.urlHash).execute();
      } else {
        await insertFrontier(trx, run.id, [input.redirect], depth, 'alias');
      }
    }

    let queued = 0;
    if (!duplicate && input.links.length > 0) {
      const seen = await known(trx, run.id, input.links.map((l) => l.hash));
      // Found again by a shorter path before being scraped: keep the shallower depth for max_depth.
      const shallower = [...seen].filter(([, row]) => row.state === 'queued' && row.depth > depth + 1).map(([hash]) => hash);
      if (shallower.length > 0) {
        await trx.updateTable('crawl_urls').set({ depth: depth + 1 }).where('crawl_id', '=', run.id).where('url_hash', 'in', shallower).execute();
      }
      const fresh = input.links.filter((l) => !seen.has(l.hash)).slice(0, Math.max(0, input.maxPages - admitted));
      if (fresh.length > 0) {
        await insertFrontier(trx, run.id, fresh, depth + 1);
        await insertJobs(trx, fresh.map((url) => pageJob(run, url, depth + 1, input.maxAttempts)));
        queued = fresh.length;
        admitted += queued;
      }
    }

    if (!duplicate) {
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
        status, seq, completed, failed, admitted, error, updated_at: now,
        completed_at: done ? now : null,
        ...(input.scopeHosts ? { scope_hosts: JSON.stringify(input.scopeHosts) } : {}),
      })
      .where('id', '=', run.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (done) await insertJobs(trx, [{ kind: NOTIFY_JOB, workspace: run.workspace, payload: { crawl: run.id }, maxAttempts: 10 }]);
    return { recorded: true, queued, finished: done ? toRunRow(updated) : null };
  });
}
