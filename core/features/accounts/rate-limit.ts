/**
 * Requests per minute per workspace, counted in the database so that every API process sharing it
 * (Postgres) enforces one limit together. The counters are fixed one-minute windows, reset on the
 * minute: exact across processes, at the price of allowing up to twice the limit across a window
 * boundary. Counting goes through the batcher (batch.ts), with the charges of metered calls.
 */
import type { RateDecision, RateLimiter } from '../../metering.ts';
import type { Admission } from './batch.ts';
import type { Batcher } from './batch.ts';

const WINDOW_MS = 60_000;

/** The decision for a request that is `admission.count`-th in its minute. */
export function decide(admission: Pick<Admission, 'count' | 'window'>, limit: number, now = Date.now()): RateDecision {
  const count = admission.count ?? 0;
  const resetMs = (admission.window + 1) * WINDOW_MS;
  const allowed = count <= limit;
  return { allowed, limit, remaining: Math.max(0, limit - count), resetAt: resetMs / 1000, retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)) };
}

export function createRateLimiter(batcher: Batcher): RateLimiter {
  return {
    async hit(workspace, limit) {
      return decide(await batcher.admit({ workspace, limit, credits: 0, required: 0 }), limit);
    },
  };
}
