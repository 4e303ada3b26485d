/**
 * Admission to a crawl's frontier, inside the transaction that records a page (record.ts): the
 * page's new links join the run one level deeper while its page budget (`max_pages`) lasts; links
 * found beyond it wait (`waiting` rows, at most `max_pages` of them), so that a slot given back
 * later — a page that redirected onto a known URL or out of scope — goes to the shallowest of
 * them instead of being lost. That is what makes a crawl return exactly min(max_pages, pages in
 * scope). A link found again by a shorter path keeps the shallower depth.
 */
import type { JobSpec } from '../../services.ts';
import type { CrawlExecutor } from './tables.ts';
import { pageJob, type RunRow } from './rows.ts';
import { insertFrontier } from './store.ts';
import { crawlUrl, type CrawlUrl } from './urls.ts';

const IN_CLAUSE = 500;

export interface Admission {
  run: RunRow;
  /** Depth of the page whose links these are. */
  depth: number;
  /** Links in scope, allowed by robots.txt and within max_depth; unique. */
  links: readonly CrawlUrl[];
  admitted: number;
  waiting: number;
  maxPages: number;
  maxAttempts: number;
}

export interface Admitted {
  admitted: number;
  waiting: number;
  /** New page jobs. */
  queued: number;
}

/** Frontier rows among `hashes`, with their state and depth. */
export async function known(db: CrawlExecutor, crawlId: string, hashes: string[]): Promise<Map<string, { depth: number; state: string }>> {
  const found = new Map<string, { depth: number; state: string }>();
  for (let i = 0; i < hashes.length; i += IN_CLAUSE) {
    const rows = await db
      .selectFrom('crawl_urls')
      .select(['url_hash', 'depth', 'state'])
      .where('crawl_id', '=', crawlId)
      .where('url_hash', 'in', hashes.slice(i, i + IN_CLAUSE))
      .execute();
    for (const row of rows) found.set(row.url_hash, { depth: Number(row.depth), state: row.state });
  }
  return found;
}

export async function admit(
  trx: CrawlExecutor,
  insertJobs: (db: CrawlExecutor, specs: JobSpec[]) => Promise<unknown>,
  input: Admission,
): Promise<Admitted> {
  const { run, depth, maxPages } = input;
  let { admitted, waiting } = input;
  let queued = 0;
  const enqueue = async (urls: readonly CrawlUrl[], at: number) => {
    await insertJobs(
      trx,
      urls.map((url) => pageJob(run, url, at, input.maxAttempts)),
    );
    admitted += urls.length;
    queued += urls.length;
  };

  // Slots given back go first to links already waiting: they were found earlier, most at a shallower depth.
  if (waiting > 0 && admitted < maxPages) {
    const wanted = maxPages - admitted;
    const next = await trx
      .selectFrom('crawl_urls')
      .select(['url_hash', 'url', 'depth'])
      .where('crawl_id', '=', run.id)
      .where('state', '=', 'waiting')
      .orderBy('depth')
      .orderBy('url_hash')
      .limit(wanted)
      .execute();
    // (the row's own hash names it: the job's payload must find this row again)
    const promoted = next.flatMap((row) => {
      const url = crawlUrl(row.url);
      return url ? [{ url: { ...url, hash: row.url_hash }, depth: Number(row.depth) }] : [];
    });
    const unusable = next.filter((row) => !promoted.some((p) => p.url.hash === row.url_hash)).map((row) => row.url_hash);
    if (unusable.length > 0)
      await trx
        .updateTable('crawl_urls')
        .set({ state: 'out_of_scope' })
        .where('crawl_id', '=', run.id)
        .where('url_hash', 'in', unusable)
        .execute();
    if (promoted.length > 0) {
      await trx
        .updateTable('crawl_urls')
        .set({ state: 'queued' })
        .where('crawl_id', '=', run.id)
        .where(
          'url_hash',
          'in',
          promoted.map((p) => p.url.hash),
        )
        .execute();
      for (const { url, depth: at } of promoted) await enqueue([url], at);
    }
    // (fewer than wanted: none is left, whatever the counter said)
    waiting = next.length < wanted ? 0 : Math.max(0, waiting - next.length);
  }

  if (input.links.length === 0) return { admitted, waiting, queued };
  const seen = await known(
    trx,
    run.id,
    input.links.map((l) => l.hash),
  );
  const shallower = [...seen]
    .filter(([, row]) => (row.state === 'queued' || row.state === 'waiting') && row.depth > depth + 1)
    .map(([hash]) => hash);
  for (let i = 0; i < shallower.length; i += IN_CLAUSE) {
    await trx
      .updateTable('crawl_urls')
      .set({ depth: depth + 1 })
      .where('crawl_id', '=', run.id)
      .where('url_hash', 'in', shallower.slice(i, i + IN_CLAUSE))
      .execute();
  }
  const fresh = input.links.filter((l) => !seen.has(l.hash));
  const room = Math.max(0, maxPages - admitted);
  const now = fresh.slice(0, room);
  const later = fresh.slice(room, room + Math.max(0, maxPages - waiting));
  if (now.length > 0) {
    await insertFrontier(trx, run.id, now, depth + 1);
    await enqueue(now, depth + 1);
  }
  if (later.length > 0) {
    await insertFrontier(trx, run.id, later, depth + 1, 'waiting');
    waiting += later.length;
  }
  return { admitted, waiting, queued };
}
