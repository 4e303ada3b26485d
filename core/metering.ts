/**
 * Metering, the shared layer of cloud mode: what a call costs is declared, never computed by the
 * code doing the work. A route declares the cost-table units a call consumes (server/route.ts), a
 * job kind declares the unit one run costs (`FeatureJob.meter`); this module prices units with the
 * config's cost table and the workspace's plan, and wraps declared jobs so each run is paid before
 * it works and refunded when it gives the user nothing. The ledger behind the `Meter` contract (an
 * atomic balance and the usage log) is the accounts feature's.
 */
import type { InjectionToken } from 'tsyringe';
import type { TrawlConfig } from './config-schema.ts';
import { TrawlError } from './errors.ts';
import type { ClaimedJob, JobHandler } from './services.ts';
import type { Plan } from './storage/workspaces.ts';

/** A line of the cost table (`[credits]` in config/default.toml). */
export type CostUnit = keyof TrawlConfig['credits'];
/** How many of each unit a call consumes. */
export type Units = Partial<Record<CostUnit, number>>;

/** Credits for `units` on `plan`; a plan-rated unit on a plan without a rate is a paid feature's 403. */
export function priceOf(units: Units, plan: Plan, config: Pick<TrawlConfig, 'credits' | 'plans'>): number {
  let total = 0;
  for (const [unit, count] of Object.entries(units) as Array<[CostUnit, number | undefined]>) {
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

export interface Meter {
  price(units: Units, plan: Plan): number;
  /**
   * Takes `credits` from the workspace if it holds at least `required` (≥ credits), atomically:
   * concurrent calls never take the balance below zero. Throws 402 `Insufficient credits` (with the
   * credit headers) otherwise, before any work is done.
   */
  debit(workspace: string, credits: number, required: number): Promise<Charge>;
  /** Writes the call's usage row; `refund` credits of the charge go back first (the call gave nothing). */
  record(charge: Charge, outcome: RunOutcome, refund: number): Promise<Recorded>;
  /** One unit of asynchronous work: charged and added to the run's usage row together; null when the workspace cannot pay. */
  chargeRun(run: RunRef, units: Units): Promise<{ credits: number; remaining: number } | null>;
  /** Gives back what chargeRun took, on the run's usage row too. */
  refundRun(run: RunRef, credits: number): Promise<void>;
}

export const MeterToken = Symbol('Meter') as InjectionToken<Meter>;

/** What a job kind declares when its runs are billable (`FeatureJob.meter`). */
export interface JobMeter {
  /** The run the job belongs to and the units one run costs; null when this job is free. */
  bill(job: ClaimedJob): Promise<{ run: RunRef; units: Units } | null>;
  /** The workspace ran out of credits: stop the work the job belongs to, with a status that says so. */
  exhausted(job: ClaimedJob, run: RunRef): Promise<void>;
}

/** A handler returns this when it found nothing to do (already done, run stopped): the run is refunded. */
export const SKIPPED = 'skipped';

export const INSUFFICIENT_CREDITS = 'Insufficient credits';

/** Pays for each run of a declared job before it works; refunds runs that throw or were skipped. */
export function meteredJob(handler: JobHandler, declared: JobMeter, meter: Meter): JobHandler {
  return async (job, signal) => {
    const bill = await declared.bill(job);
    if (!bill) return handler(job, signal);
    const paid = await meter.chargeRun(bill.run, bill.units);
    if (!paid) {
      await declared.exhausted(job, bill.run);
      return SKIPPED;
    }
    let outcome: Awaited<ReturnType<JobHandler>>;
    try {
      outcome = await handler(job, signal);
    } catch (err) {
      if (paid.credits > 0) await meter.refundRun(bill.run, paid.credits);
      throw err;
    }
    if (outcome === SKIPPED && paid.credits > 0) await meter.refundRun(bill.run, paid.credits);
    return outcome;
  };
}

/** The credit headers every answer of a metered call carries. */
export function creditHeaders(used: number, remaining: number): Record<string, string> {
  return { 'x-credits-used': String(used), 'x-credits-remaining': String(remaining) };
}
