/**
 * Per-host politeness across worker processes (Postgres): the same rules as the in-process
 * HostGate — at most `perHost` fetches of a host at once, starts spaced by the host's delay — but
 * held in the database, so N processes crawling one site together are as polite as one. A fetch
 * is granted in one transaction that locks the host's row (`crawl_hosts`, its next allowed start),
 * counts the host's slots in progress (`crawl_host_slots`, leased so a killed process frees them)
 * and, when both allow it, takes a slot and moves the next start on by the gap. Times come from
 * the database's clock, so processes on different machines agree. A process remembers when a host
 * will be free again and tells the job queue (`busyHosts`), so it does not claim pages to wait on.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { CrawlDb } from './tables.ts';
import type { PolitenessGate } from './gate.ts';

/** How often a process asks again while the host's slots are all taken (the gap decides otherwise). */
const FULL_RETRY_MS = 100;
/** Every so many grants a process forgets hosts nobody has fetched for an hour (one row per host ever crawled otherwise). */
const PRUNE_EVERY = 500;
const FORGET_AFTER_MS = 3_600_000;

type Claim = { granted: true; slot: string } | { granted: false; waitMs: number };

export class SharedHostGate implements PolitenessGate {
  /** Hosts this process found busy, until when (ms by this process's clock). */
  private readonly busyUntil = new Map<string, number>();
  /** Pages of a host waiting at this gate: while one waits, claiming more of the host is pointless. */
  private readonly waiting = new Map<string, number>();
  private grants = 0;

  constructor(
    private readonly db: CrawlDb,
    private readonly perHost: number,
    private readonly baseDelayMs: number,
    /** How long a slot holds when its process never releases it (it died): past any fetch's time limit. */
    private readonly slotLeaseMs: number,
    private readonly logger: Logger,
    private readonly onFree: () => void = () => {},
  ) {}

  busyHosts(): string[] {
    const now = Date.now();
    const busy = new Set(this.waiting.keys());
    for (const [host, until] of this.busyUntil) {
      if (until > now) busy.add(host);
      else this.busyUntil.delete(host);
    }
    return [...busy];
  }

  async acquire(host: string, delayMs: number, signal?: AbortSignal): Promise<() => void> {
    this.waiting.set(host, (this.waiting.get(host) ?? 0) + 1);
    try {
      return await this.wait(host, Math.max(this.baseDelayMs, delayMs), signal);
    } finally {
      const left = this.waiting.get(host)! - 1;
      if (left > 0) this.waiting.set(host, left);
      else this.waiting.delete(host);
    }
  }

  private async wait(host: string, gap: number, signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      signal?.throwIfAborted();
      const claim = await this.claim(host, gap);
      if (claim.granted) {
        if (++this.grants % PRUNE_EVERY === 0) void this.prune();
        this.busyUntil.set(host, Date.now() + gap);
        if (gap > 0) setTimeout(this.onFree, gap).unref?.();
        return this.releaser(claim.slot);
      }
      this.busyUntil.set(host, Date.now() + claim.waitMs);
      await sleep(claim.waitMs, signal);
    }
  }

  async holdOff(host: string, ms: number): Promise<void> {
    const until = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint + ${ms}`;
    await this.db
      .insertInto('crawl_hosts')
      .values({ host, next_at: until })
      .onConflict((oc) => oc.column('host').doUpdateSet({ next_at: sql<number>`greatest(crawl_hosts.next_at, excluded.next_at)` }))
      .execute();
    this.busyUntil.set(host, Math.max(this.busyUntil.get(host) ?? 0, Date.now() + ms));
    setTimeout(this.onFree, ms).unref?.();
  }

  private releaser(slot: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.db
        .deleteFrom('crawl_host_slots')
        .where('id', '=', slot)
        .execute()
        .catch((err) => this.logger.warn({ err }, 'could not free a host slot; its lease will'))
        .finally(this.onFree);
    };
  }

  private async prune(): Promise<void> {
    const before = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint - ${FORGET_AFTER_MS}`;
    await this.db
      .deleteFrom('crawl_hosts')
      .where('next_at', '<', before)
      .execute()
      .catch((err) => this.logger.warn({ err }, 'could not prune idle hosts'));
  }

  private claim(host: string, gap: number): Promise<Claim> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('crawl_hosts')
        .values({ host, next_at: 0 })
        .onConflict((oc) => oc.column('host').doNothing())
        .execute();
      const row = await trx
        .selectFrom('crawl_hosts')
        .select(['next_at', sql<string>`(extract(epoch from clock_timestamp()) * 1000)::bigint`.as('now')])
        .where('host', '=', host)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const now = Number(row.now);
      const nextAt = Number(row.next_at);
      if (nextAt > now) return { granted: false, waitMs: nextAt - now };
      await trx.deleteFrom('crawl_host_slots').where('host', '=', host).where('until', '<', now).execute();
      const { active } = await trx
        .selectFrom('crawl_host_slots')
        .select((eb) => eb.fn.countAll<string>().as('active'))
        .where('host', '=', host)
        .executeTakeFirstOrThrow();
      if (Number(active) >= this.perHost) return { granted: false, waitMs: FULL_RETRY_MS };
      const slot = crypto.randomUUID();
      await trx
        .insertInto('crawl_host_slots')
        .values({ id: slot, host, until: now + this.slotLeaseMs })
        .execute();
      await trx
        .updateTable('crawl_hosts')
        .set({ next_at: now + gap })
        .where('host', '=', host)
        .execute();
      return { granted: true, slot };
    });
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
