/**
 * Requests per minute per workspace, counted in the database so that every API process sharing it
 * (Postgres) enforces one limit together. The counters are fixed one-minute windows, reset on the
 * minute: exact across processes, at the price of allowing up to twice the limit across a window
 * boundary.
 *
 * A process counts the requests waiting for one workspace with one upsert (`count = count + n`),
 * and each request's place in that sum is its count. When the limit is large it also takes a block
 * of counts ahead (≤ 1/64 of what is left of the minute, ≤ 1,000), which its next requests use
 * without a write; so with several processes a workspace can be refused up to a block per process
 * before the counter reaches the limit, never let past it. Small limits are counted one by one.
 */
import type { RateDecision, RateLimiter } from '../../metering.ts';
import { executor } from './sql.ts';
import type { AccountsDb } from './tables.ts';

const WINDOW_MS = 60_000;
const BLOCK_FRACTION = 64;
const BLOCK_MAX = 1_000;
const COUNT =
  'insert into rate_limits (workspace_id, window_start, count) values (?, ?, ?) on conflict (workspace_id, window_start) do update set count = rate_limits.count + excluded.count returning count';

/** The decision for a request that is `count`-th in its minute. */
export function decide(count: number, window: number, limit: number, now = Date.now()): RateDecision {
  const resetMs = (window + 1) * WINDOW_MS;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: resetMs / 1000,
    retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
}

interface Waiting {
  limit: number;
  resolve(count: number): void;
  reject(err: unknown): void;
}

interface Tally {
  window: number;
  /** Counts taken ahead and not used. */
  left: number;
  /** The counter after this process's last upsert. */
  counted: number;
  queue: Waiting[];
  running: boolean;
}

export function createRateLimiter(db: AccountsDb, dialect: 'sqlite' | 'postgres', now: () => number = Date.now): RateLimiter {
  const exec = executor(dialect);
  const tallies = new Map<string, Tally>();
  let swept = 0;

  async function count(workspace: string, tally: Tally, window: number): Promise<void> {
    const waiting = tally.queue.splice(0);
    const limit = Math.min(...waiting.map((w) => w.limit));
    const ahead = Math.min(BLOCK_MAX, Math.floor(Math.max(0, limit - tally.counted - waiting.length) / BLOCK_FRACTION));
    const asked = waiting.length + ahead;
    try {
      const [row] = await exec(db, COUNT, [workspace, window, asked]);
      const first = Number(row!.count) - asked;
      tally.counted = first + asked;
      for (const [place, w] of waiting.entries()) w.resolve(first + place + 1);
      // Counts taken ahead are usable only where they fall within the limit.
      tally.left = Math.max(0, Math.min(ahead, limit - (first + waiting.length)));
    } catch (err) {
      for (const w of waiting) w.reject(err);
    }
    if (window > swept) {
      swept = window;
      // Past minutes' counters are never read again; best effort, off the request's path.
      void db
        .deleteFrom('rate_limits')
        .where('window_start', '<', window - 1)
        .execute()
        .catch(() => {
          swept = 0;
        });
    }
  }

  function run(workspace: string, tally: Tally, window: number): void {
    if (tally.running) return;
    tally.running = true;
    void (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      while (tally.queue.length > 0) await count(workspace, tally, window);
    })().finally(() => {
      tally.running = false;
    });
  }

  return {
    async hit(workspace, limit) {
      const window = Math.floor(now() / WINDOW_MS);
      let tally = tallies.get(workspace);
      if (!tally || tally.window !== window) {
        if (tallies.size > 10_000) tallies.clear();
        tally = { window, left: 0, counted: 0, queue: [], running: false };
        tallies.set(workspace, tally);
      }
      if (tally.left > 0 && tally.queue.length === 0) {
        tally.left--;
        return decide(tally.counted - tally.left, window, limit, now());
      }
      const current = tally;
      const place = await new Promise<number>((resolve, reject) => {
        current.queue.push({ limit, resolve, reject });
        run(workspace, current, window);
      });
      return decide(place, window, limit, now());
    },
  };
}
