/**
 * Credits on the request path without a database write per request. Each API process keeps a
 * purse per workspace: calls are paid from credits the process holds; when they do not cover a
 * call, it waits for the next charge, in which every call waiting for that workspace is weighed in
 * arrival order against the balance in one transaction (leases.ts), so exactly the affordable calls
 * pass however many processes charge one workspace at once. When the balance is large the same
 * transaction leases a block more (≤ 1/16 of the balance, ≤ 1,000 credits), which the process
 * spends locally and tops up before it runs out. Small balances are never leased: every credit is
 * taken for a waiting call, exactly as a per-call debit would.
 *
 * Unspent credits go back to the balance after a few idle seconds, at shutdown, or with the next
 * charge of the workspace (so a balance nearly spent is weighed whole); a process that stops
 * renewing its lease stops spending from it long before another process may reclaim it.
 */
import { giveBack, LEASE_TTL_MS, take, type Claim } from './leases.ts';
import type { AccountsDb } from './tables.ts';

/** Held credits not spent for this long go back to the balance. */
const IDLE_MS = 2_000;
/** Claims weighed in one transaction at most. */
const MAX_CLAIMS = 256;

export interface Paid {
  charged: boolean;
  /** The workspace's balance as this process knows it: after this charge, or as it stood when refused. */
  remaining: number;
}

interface Waiting extends Claim {
  resolve(paid: Paid): void;
  reject(err: unknown): void;
}

interface Pocket {
  workspace: string;
  lease: string;
  /** Credits held and not spent. */
  local: number;
  /** The balance left in the database at this process's last charge. */
  known: number;
  /** The last lease was a block (the balance was large): top up before it runs out. */
  leasing: boolean;
  lowWater: number;
  queue: Waiting[];
  running: Promise<void> | null;
  renewedAt: number;
  usedAt: number;
}

export interface Purse {
  /** Pays `credits` if the workspace can hold `required` (≥ credits). */
  pay(workspace: string, credits: number, required: number): Promise<Paid>;
  /** Gives credits back to the balance (a refund); the balance after, as this process knows it. */
  refund(workspace: string, credits: number): Promise<number>;
  /** The lease row the workspace's spending is logged against. */
  leaseOf(workspace: string): string;
  /** The lease was written to (usage rows logged against it): it lives on. */
  renewed(workspace: string): void;
  /** Waits for the charges under way. */
  settle(): Promise<void>;
  /** Gives every held credit back; the lease rows left are empty. */
  close(): Promise<string[]>;
}

export function createPurse(db: AccountsDb, processId: string = crypto.randomUUID(), now: () => number = Date.now): Purse {
  const pockets = new Map<string, Pocket>();
  const pocketOf = (workspace: string): Pocket => {
    let pocket = pockets.get(workspace);
    if (!pocket) {
      pocket = {
        workspace,
        lease: `${processId}/${workspace}`,
        local: 0,
        known: 0,
        leasing: false,
        lowWater: 0,
        queue: [],
        running: null,
        renewedAt: 0,
        usedAt: 0,
      };
      pockets.set(workspace, pocket);
    }
    return pocket;
  };
  // Spending stops at half the lease's life without renewal: long before anyone may reclaim it.
  const fresh = (pocket: Pocket) => now() - pocket.renewedAt < LEASE_TTL_MS / 2;

  async function charge(pocket: Pocket): Promise<void> {
    const claims = pocket.queue.splice(0, MAX_CLAIMS);
    // Calls that the held credits do not cover are weighed against the whole balance, those included;
    // a top-up (no calls waiting) keeps spending what is held meanwhile.
    const returned = claims.length > 0 ? pocket.local : 0;
    pocket.local -= returned;
    try {
      const taken = await take(db, pocket.lease, pocket.workspace, claims, returned, now());
      pocket.local += taken.extra;
      pocket.known = taken.after;
      pocket.leasing = taken.extra > 0;
      pocket.lowWater = Math.floor(taken.extra / 4);
      pocket.renewedAt = now();
      let left = taken.before;
      claims.forEach((claim, i) => {
        if (taken.accepted[i]) left -= claim.credits;
        claim.resolve({ charged: taken.accepted[i]!, remaining: taken.accepted[i] ? left : taken.after + pocket.local });
      });
    } catch (err) {
      // Nothing was taken; what was held is still held.
      pocket.local += returned;
      for (const claim of claims) claim.reject(err);
    }
  }

  /** One charge at a time per workspace; calls arriving meanwhile wait for the next. */
  function schedule(pocket: Pocket): void {
    if (pocket.running) return;
    pocket.running = (async () => {
      // One turn of the event loop: calls arriving together are weighed together.
      await new Promise((resolve) => setImmediate(resolve));
      do await charge(pocket);
      while (pocket.queue.length > 0);
    })().finally(() => {
      pocket.running = null;
    });
  }

  async function release(pocket: Pocket): Promise<void> {
    const credits = pocket.local;
    if (credits <= 0) return;
    pocket.local = 0;
    try {
      pocket.known = await giveBack(db, pocket.lease, pocket.workspace, credits);
      pocket.leasing = false;
    } catch {
      pocket.local += credits;
    }
  }

  const idle = setInterval(() => {
    for (const pocket of pockets.values()) {
      if (pocket.local > 0 && !pocket.running && now() - pocket.usedAt > IDLE_MS) void release(pocket);
    }
  }, IDLE_MS / 2);
  idle.unref?.();

  return {
    pay(workspace, credits, required) {
      const pocket = pocketOf(workspace);
      const need = Math.max(credits, required);
      if (pocket.queue.length === 0 && pocket.local >= need && fresh(pocket)) {
        pocket.local -= credits;
        pocket.usedAt = now();
        // Top up behind this call, so the next ones do not wait.
        if (pocket.leasing && pocket.local < pocket.lowWater) schedule(pocket);
        return Promise.resolve({ charged: true, remaining: pocket.known + pocket.local });
      }
      return new Promise<Paid>((resolve, reject) => {
        pocket.queue.push({ credits, required, resolve, reject });
        schedule(pocket);
      });
    },

    async refund(workspace, credits) {
      const pocket = pocketOf(workspace);
      pocket.known = await giveBack(db, pocket.lease, workspace, credits);
      return pocket.known + pocket.local;
    },

    leaseOf: (workspace) => pocketOf(workspace).lease,

    renewed(workspace) {
      pocketOf(workspace).renewedAt = now();
    },

    async settle() {
      await Promise.all([...pockets.values()].map((pocket) => pocket.running));
    },

    async close() {
      clearInterval(idle);
      await this.settle();
      await Promise.all([...pockets.values()].map(release));
      return [...pockets.values()].map((pocket) => pocket.lease);
    },
  };
}
