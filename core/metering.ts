/**
 * Metering, the shared layer of cloud mode: what a call costs is declared, never computed by the
 * code doing the work. A route declares the cost-table units a call consumes (server/route.ts), a
 * job kind declares the unit one run costs (`FeatureJob.meter`); this module prices units with the
 * config's cost table and the workspace's plan, and wraps declared jobs so each run is paid before
 * it works and refunded when it gives the user nothing. The ledger behind the `Meter` contract (an
 * atomic balance and the usage log) is the accounts feature's.
 */
import type { Metrics } from './metrics.ts';
import type { Logger } from 'pino';
import type { InjectionToken } from 'tsyringe';
import type { TrawlConfig } from './config-schema.ts';
import { TrawlError } from './errors.ts';
import type { ClaimedJob, JobHandler } from './services.ts';
import type { Plan } from './storage/workspaces.ts';

/**
 * How many of each unit a call consumes. Units are lines of the cost table (`[credits]` in
 * config/default.toml), declared by core, a feature or a format (core/costs.ts): they are only known
 * at boot, so the type cannot list them.
 */
export type Units = Partial<Record<string, number>>;

/** Credits for `units` on `plan`; a plan-rated unit on a plan without a rate is a paid feature's 403. */
export function priceOf(units: Units, plan: Plan, config: Pick<TrawlConfig, 'credits' | 'plans'>): number {
  let total = 0;
  for (const [unit, count] of Object.entries(units)) {
    if (!count) continue;
    const price = config.credits[unit];
    const each = price === 'plan' ? config.plans[plan].planRate : price;
    if (each === undefined) throw new TrawlError('forbidden', `${unit} requires a paid plan`);
    total += each * count;
  }
  return total;
}

/** Money taken up front for one call. */
export interface Charge {
  workspace: string;
  credits: number;
  /** The balance right after the charge. */
  remaining: number;
}

/** How a call ended, for its usage row. */
export interface RunOutcome {
  endpoint: string;
  status: 'succeeded' | 'failed';
  url?: string;
  /** The stored result the call produced (GET /v1/results/{id}). */
  resultId?: string;
  /** The asynchronous run it started (a crawl or batch id), whose units are charged to this row as they happen. */
  runId?: string;
  error?: string;
  durationMs: number;
  startedAt: string;
}

/** The usage row written for a call and the balance after it. */
export interface Recorded {
  usageId: string;
  credits: number;
  remaining: number;
}

/** A run of asynchronous work as the usage log knows it. */
export interface RunRef {
  workspace: string;
  runId: string;
  endpoint: string;
  url?: string;
}

/** A request measured against its workspace's requests per minute. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the minute resets, seconds since the epoch. */
  resetAt: number;
  /** Seconds until then (at least 1). */
  retryAfter: number;
}

/** What admitting a metered call did: counted it, charged it (or not), and logged it. */
export interface Admitted {
  /** Null when no rate limit applies. */
  rate: RateDecision | null;
  /** False: refused by the rate limit or the balance; nothing was taken. */
  charged: boolean;
  /** The balance after this call's charge (or as it stands when refused). */
  remaining: number;
  /** The call's usage row id, for `finish` (null when the call logs itself later: runs). */
  usageId: string | null;
  /** False: the key was revoked (or never existed) as of the charge; nothing was taken. */
  keyValid: boolean;
  /** The workspace's plan refused the call as it stands now (`lapsed`, or `paid` for a paid feature); nothing was taken. */
  refusal: 'lapsed' | 'paid' | null;
}

export interface AdmitRequest {
  workspace: string;
  /** Requests per minute; absent = not counted. */
  limit?: number;
  credits: number;
  /** What the balance must hold (≥ credits): work charged later needs credit for its first unit. */
  required: number;
  /** The call's usage row, written complete by `finish`. */
  usage?: { endpoint: string; url?: string; startedAt: string };
  /** sha256 of the caller's key, checked with the charge: a key revoked a moment ago does nothing. */
  keyHash?: string;
  /** Billable work: refused while the workspace's plan has lapsed. */
  metered?: boolean;
  /** A paid feature: refused on the free plan or a lapsed one. */
  paid?: boolean;
}

export interface Meter {
  price(units: Units, plan: Plan): number;
  /**
   * Checks the call's key and plan, counts it against `limit`, and takes `credits` if the balance
   * holds `required`: concurrent calls, in any number of processes, never take the balance below
   * zero. Nothing is taken when the key, the plan, the limit or the balance refuses; the caller
   * answers 401, 403, 429 or 402 before any work. The usage row of an admitted call (`usage`) is
   * written when it finishes.
   */
  admit(request: AdmitRequest): Promise<Admitted>;
  /**
   * Writes an admitted call's usage row with its outcome (resolves once it is in); `refund` credits
   * go back (the call gave nothing). The balance after a refund, else null.
   */
  finish(
    workspace: string,
    usageId: string,
    outcome: Omit<RunOutcome, 'endpoint' | 'url' | 'runId' | 'startedAt'>,
    refund: number,
  ): Promise<number | null>;
  /** Writes the usage row of a call that started asynchronous work (`runId`), after it returned. */
  record(charge: Charge, outcome: RunOutcome, refund: number): Promise<Recorded>;
  /**
   * One unit of asynchronous work: charged and added to the run's usage row together; refused, with
   * nothing taken, when the workspace cannot pay or its plan (read now, not remembered) does not
   * allow it: lapsed, or a plan-rated unit on the free plan.
   */
  chargeRun(run: RunRef, units: Units): Promise<RunCharge>;
  /** Gives back what chargeRun took, on the run's usage row too. */
  refundRun(run: RunRef, credits: number): Promise<void>;
  /** Closes a run's usage row with its outcome (status, error, duration, `finished_at`): runs that are one job each (a check). */
  finishRun(run: RunRef, outcome: Pick<RunOutcome, 'status' | 'error' | 'durationMs'>): Promise<void>;
  /** Resolves once every write handed in by this process so far is in the database. */
  settle(): Promise<void>;
  /** At shutdown: writes what is pending and gives back the credits this process holds. */
  close(): Promise<void>;
}

/** Rate limits on their own, for the calls that are not metered (reads). */
export interface RateLimiter {
  hit(workspace: string, limit: number): Promise<RateDecision>;
}

export const RateLimiterToken = Symbol('RateLimiter') as InjectionToken<RateLimiter>;

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

export const MeterToken = Symbol('Meter') as InjectionToken<Meter>;

/** Why a unit of asynchronous work was not paid: the balance, or the workspace's plan as it stands. */
export type RunRefusal = 'credits' | 'lapsed' | 'paid';

export type RunCharge = { credits: number; remaining: number; refusal?: undefined } | { refusal: RunRefusal };

/** What a job kind declares when its runs are billable (`FeatureJob.meter`). */
export interface JobMeter {
  /** Each job is a run of its own (a check): its usage row is closed with the job's outcome, not left `running`. */
  ownRun?: boolean;
  /** The run the job belongs to and the units one run costs; null when this job is free. */
  bill(job: ClaimedJob): Promise<{ run: RunRef; units: Units } | null>;
  /**
   * The run was not paid, so the job did nothing: say why where the user looks, and stop the work
   * it belongs to (a crawl) or leave a recurring subject (a watch) on its schedule to try again.
   */
  refused(job: ClaimedJob, run: RunRef, refusal: RunRefusal): Promise<void>;
}

/** Why a run stopped, for a crawl's or batch's `error`. */
export const RUN_REFUSALS: Record<RunRefusal, string> = {
  credits: 'Insufficient credits: the workspace ran out of credits',
  lapsed: "The workspace's plan has lapsed",
  paid: "The workspace's plan does not include this work",
};

/** What a scheduled or manual check that was not paid records on its subject (`last_error`). */
export function skippedCheck(refusal: RunRefusal, feature: string): string {
  if (refusal === 'credits') return `${INSUFFICIENT_CREDITS}: the check was not run`;
  return refusal === 'lapsed' ? "Skipped: the workspace's plan has lapsed" : `Skipped: ${feature} requires a paid plan`;
}

/** A handler returns this when it found nothing to do (already done, run stopped): the run is refunded. */
export const SKIPPED = 'skipped';

export const INSUFFICIENT_CREDITS = 'Insufficient credits';

/**
 * Pays for each run of a declared job before it works; refunds runs that throw or were skipped.
 * This is where every billable job is admitted, scheduled or started by a call: a run the
 * workspace cannot pay, or its plan no longer allows, does no work and costs nothing.
 */
export function meteredJob(handler: JobHandler, declared: JobMeter, meter: Meter, metrics?: Metrics, logger?: Logger): JobHandler {
  return async (job, signal) => {
    const bill = await declared.bill(job);
    if (!bill) return handler(job, signal);
    const paid = await meter.chargeRun(bill.run, bill.units);
    if (paid.refusal) {
      await declared.refused(job, bill.run, paid.refusal);
      return SKIPPED;
    }
    metrics?.creditsCharged.inc({ endpoint: job.kind }, paid.credits);
    const refund = async () => {
      if (paid.credits <= 0) return;
      await meter.refundRun(bill.run, paid.credits);
      metrics?.creditsRefunded.inc({ endpoint: job.kind }, paid.credits);
    };
    const started = performance.now();
    // A row that cannot be closed costs its bookkeeping, never the job's outcome (a retry would run it again).
    const finish = (status: RunOutcome['status'], error?: string) =>
      declared.ownRun
        ? meter
            .finishRun(bill.run, { status, error, durationMs: performance.now() - started })
            .catch((err) => logger?.error({ err, run: bill.run.runId }, 'could not finish a usage row'))
        : undefined;
    let outcome: Awaited<ReturnType<JobHandler>>;
    try {
      outcome = await handler(job, signal);
    } catch (err) {
      await refund();
      await finish('failed', err instanceof Error ? err.message : String(err));
      throw err;
    }
    if (outcome === SKIPPED) await refund();
    await finish(
      outcome === SKIPPED ? 'failed' : 'succeeded',
      outcome === SKIPPED ? 'Not run: nothing to do, or the check was put off; refunded' : undefined,
    );
    return outcome;
  };
}

/** The credit headers every answer of a metered call carries. */
export function creditHeaders(used: number, remaining: number): Record<string, string> {
  return { 'x-credits-used': String(used), 'x-credits-remaining': String(remaining) };
}
