/**
 * Requests per minute per workspace, counted in the database so that every API process sharing it
 * (Postgres) enforces one limit together: one upsert per request increments the workspace's counter
 * for the current minute and answers the new count. Fixed one-minute windows, reset on the minute:
 * simple and exact across processes, at the price of allowing up to twice the limit across a
 * window boundary. Counters of past minutes are deleted as windows roll over.
 */
import type { InjectionToken } from 'tsyringe';
import type { AccountsDb } from './tables.ts';
import { readInt } from '../../storage/values.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the window resets, seconds since the epoch. */
  resetAt: number;
  /** Seconds until then (at least 1). */
  retryAfter: number;
}

export interface RateLimiter {
  hit(workspace: string, limit: number, now?: number): Promise<RateDecision>;
}

export const RateLimiterToken = Symbol('RateLimiter') as InjectionToken<RateLimiter>;

const WINDOW_MS = 60_000;

/** The headers every rate-limited answer carries, and a 429 with Retry-After too. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetAt),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfter);
  return headers;
}

export function createRateLimiter(db: AccountsDb): RateLimiter {
  let swept = 0;
  const sweep = (window: number) => {
    if (window <= swept) return;
    swept = window;
    // Best effort and off the request's path: a stale counter only costs a row until the next sweep.
    db.deleteFrom('rate_limits').where('window_start', '<', window - 1).execute().catch(() => { swept = 0; });
  };
  return {
    async hit(workspace, limit, now = Date.now()) {
      const window = Math.floor(now / WINDOW_MS);
      const row = await db
        .insertInto('rate_limits')
        .values({ workspace_id: workspace, window_start: window, count: 1 })
        .onConflict((oc) => oc.columns(['workspace_id', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limits.count', '+', 1) })))
        .returning('count')
        .executeTakeFirstOrThrow();
      sweep(window);
      const count = readInt(row.count);
      const resetMs = (window + 1) * WINDOW_MS;
      return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetAt: resetMs / 1000,
        retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
      };
    },
  };
}
