/**
 * Group commit for the hot path of cloud mode. Every metered request needs three writes — count it
 * against its rate limit, take its credits, log it — and a commit per write would cost more than
 * the request itself (a WAL append on SQLite, a round trip and a WAL flush on Postgres). So requests
 * hand their writes to this batcher, which runs everything that arrived meanwhile as one
 * transaction of a few set-based statements, one batch at a time (the next one gathers while the
 * current one runs), and answers each request with its own outcome:
 *
 * - counters: one upsert per batch adds each workspace's hits; a request's count is its place in that sum;
 * - debits: per workspace, the batch's charges in arrival order are taken by one conditional UPDATE
 *   when the balance covers them all (the usual case); otherwise one by one, each conditional, so the
 *   balance never goes below zero and exactly the affordable requests pass;
 * - usage rows are inserted with the debit that pays for them (a charge is never without its row),
 *   and finished later (status, duration, result) by one UPDATE per batch, with any refunds.
 *
 * SQLite runs a batch as a transaction of small statements (batch-steps.ts); Postgres as one
 * statement, one round trip (batch-postgres.ts), committed with `synchronous_commit = off`: a
 * database crash (not a Trawl crash) may forget the last fraction of a second of counters, charges
 * and usage rows together, but can never overdraw a balance or charge twice.
 */
import { createTickBatcher } from '../../batching.ts';
import type { AccountsDb, UsageLogTable } from './tables.ts';
import { charge, count, executor, finish } from './batch-steps.ts';
import { runPostgresBatch } from './batch-postgres.ts';

const WINDOW_MS = 60_000;
/** Requests per batch at most: a batch is one transaction, which should stay short. */
const MAX_BATCH = 256;
/**
 * Postgres batches running at once: a batch waits on no other (they only meet on a workspace's row,
 * whose lock orders them), so a few lanes keep requests from queuing behind one round trip.
 */
const LANES = 2;

export type NewUsageRow = Omit<UsageLogTable, 'credits'>;

export interface Admission {
  /** Null when the request was not counted (no limit applies). */
  count: number | null;
  window: number;
  /** False when the rate limit refused it; then nothing was charged. */
  allowed: boolean;
  /** False when the balance could not pay (or the limit refused it). */
  charged: boolean;
  /** The balance after this request's charge (or as it stood, when not charged); null when not read. */
  remaining: number | null;
  /** False when the request's key is unknown or revoked as of this batch: nothing was charged. */
  keyValid: boolean;
  /** The plan refused the call as the workspace stands now: nothing was charged. */
  refusal: 'lapsed' | 'paid' | null;
}

export interface AdmitOp {
  workspace: string;
  /** Requests per minute; undefined = not counted. */
  limit?: number;
  credits: number;
  required: number;
  /** Inserted with the charge when it goes through. */
  row?: NewUsageRow;
  /** sha256 of the request's key: checked here, with the charge, so a key revoked a moment ago does nothing. */
  keyHash?: string;
  /** Billable work: refused while the workspace's plan has lapsed. */
  metered?: boolean;
  /** A paid feature: refused on the free plan or a lapsed one. */
  paid?: boolean;
}

export interface FinishOp {
  workspace: string;
  usageId: string;
  status: string;
  error: string | null;
  durationMs: number;
  resultId: string | null;
  /** Credits given back (the call failed); its row's credits go down by as much. */
  refund: number;
}

export interface Batcher {
  admit(op: AdmitOp): Promise<Admission>;
  /** Resolves with the balance after a refund (null without one). */
  finish(op: FinishOp): Promise<number | null>;
  /** Waits until everything handed in so far is written. */
  settle(): Promise<void>;
}

type Item = { admit: AdmitOp } | { finish: FinishOp };
type Outcome = Admission | number | null;

export function createBatcher(db: AccountsDb, dialect: 'sqlite' | 'postgres', now: () => number = Date.now): Batcher {
  let swept = 0;
  const exec = executor(dialect);

  /** Portable: every step a statement of its own, the batch one transaction. */
  async function sequential(admits: AdmitOp[], finishes: FinishOp[], window: number) {
    return db.transaction().execute(async (trx) => {
      const counts = await count(exec, trx, admits, window);
      return { admissions: await charge(exec, trx, admits, counts, window), refunded: await finish(exec, trx, finishes) };
    });
  }

  /** Postgres: one statement for the batch; refunds and balances too low for the whole batch the portable way. */
  async function single(admits: AdmitOp[], finishes: FinishOp[], window: number) {
    const plain = finishes.filter((op) => op.refund === 0);
    const { admissions, unsettled } = await runPostgresBatch(db, admits, plain, window);
    const refunds = finishes.filter((op) => op.refund > 0);
    if (unsettled.length === 0 && refunds.length === 0) return { admissions, refunded: finishes.map(() => null) };
    const rest = await db.transaction().execute(async (trx) => ({
      charged: await charge(exec, trx, unsettled.map((i) => admits[i]!), unsettled.map((i) => admissions[i]!.count), window),
      refunded: await finish(exec, trx, refunds),
    }));
    unsettled.forEach((i, k) => { admissions[i] = rest.charged[k]!; });
    const byOp = new Map(refunds.map((op, k) => [op, rest.refunded[k]!]));
    return { admissions, refunded: finishes.map((op) => byOp.get(op) ?? null) };
  }

  const execute = async (items: Item[]): Promise<Outcome[]> => {
    const window = Math.floor(now() / WINDOW_MS);
    const admits = items.flatMap((item) => ('admit' in item ? [item.admit] : []));
    const finishes = items.flatMap((item) => ('finish' in item ? [item.finish] : []));
    const { admissions, refunded } = await (dialect === 'postgres' ? single : sequential)(admits, finishes, window);
    if (window > swept) {
      swept = window;
      // Past minutes' counters are never read again; best effort, outside the batch.
      void db.deleteFrom('rate_limits').where('window_start', '<', window - 1).execute().catch(() => { swept = 0; });
    }
    let a = 0;
    let f = 0;
    return items.map((item) => ('admit' in item ? admissions[a++]! : refunded[f++]!));
  };
  // On Postgres, admissions (on the request's path) and finished rows (behind the answer) go in
  // batches of their own, so no request waits for rows other requests are finishing.
  const admitting = createTickBatcher<Item, Outcome>(execute, { maxBatch: MAX_BATCH, concurrency: dialect === 'postgres' ? LANES : 1 });
  const finishing = dialect === 'postgres' ? createTickBatcher<Item, Outcome>(execute, { maxBatch: MAX_BATCH }) : admitting;

  return {
    admit: (op) => admitting.run({ admit: op }) as Promise<Admission>,
    finish: (op) => finishing.run({ finish: op }) as Promise<number | null>,
    async settle() {
      await admitting.settle();
      await finishing.settle();
    },
  };
}
