/**
 * The database side of credit leases (purse.ts). Credits leave a workspace's balance only into a
 * lease row of the process that took them (`held`), and leave that row only as usage rows written
 * in the same transaction (`spend`) or back to the balance (`giveBack`, or `reclaimExpired` for a
 * process that died). So every credit taken is, at any moment, in the balance, in a live process's
 * hands, or in the usage log — a crash loses none, it only gives back what was not logged.
 *
 * Debits stay conditional (`credits >= n`): the balance is read without a lock, and a debit that
 * finds it changed meanwhile (another process, a grant) is retried with the new balance. Every
 * transaction writes first (the lease row), so on SQLite it holds the write lock before it reads.
 */
import { readInt } from '../../storage/values.ts';
import type { AccountsDb, AccountsExecutor } from './tables.ts';

/** How long a lease row lives without being renewed; its process stops spending from it after half. */
export const LEASE_TTL_MS = 60_000;
/** A workspace's balance is leased in blocks of at most 1/16 of it, and only blocks of at least this many credits. */
const LEASE_FRACTION = 16;
const LEASE_MIN = 16;
const LEASE_MAX = 1_000;
const MAX_ATTEMPTS = 8;

export interface Claim {
  credits: number;
  /** What the balance must hold for it (≥ credits). */
  required: number;
}

export interface Taken {
  /** Per claim, in order: paid, or refused for want of credits. */
  accepted: boolean[];
  /** The balance the claims were weighed against (what the process gave back included). */
  before: number;
  /** Credits taken beyond the accepted claims, for the process to spend later. */
  extra: number;
  /** The balance left in the database. */
  after: number;
}

/** The block to lease when `spare` credits are left after the claims: none while the balance is small. */
export function leaseBlock(spare: number): number {
  const block = Math.min(LEASE_MAX, Math.floor(spare / LEASE_FRACTION));
  return block >= LEASE_MIN ? block : 0;
}

async function touch(trx: AccountsExecutor, lease: string, workspace: string, now: number): Promise<void> {
  await trx
    .insertInto('credit_leases')
    .values({ id: lease, workspace_id: workspace, held: 0, expires_at: now + LEASE_TTL_MS })
    .onConflict((oc) => oc.column('id').doUpdateSet({ expires_at: now + LEASE_TTL_MS }))
    .execute();
}

async function addHeld(trx: AccountsExecutor, lease: string, credits: number): Promise<void> {
  if (credits !== 0)
    await trx
      .updateTable('credit_leases')
      .set((eb) => ({ held: eb('held', '+', credits) }))
      .where('id', '=', lease)
      .execute();
}

/**
 * Takes `credits` out of the lease for the balance; false when the lease no longer holds them (it
 * expired and was reclaimed, credits included): then they must not be given back twice.
 */
async function release(trx: AccountsExecutor, lease: string, credits: number): Promise<boolean> {
  const row = await trx
    .updateTable('credit_leases')
    .set((eb) => ({ held: eb('held', '-', credits) }))
    .where('id', '=', lease)
    .where('held', '>=', credits)
    .returning('held')
    .executeTakeFirst();
  return row !== undefined;
}

async function addBalance(trx: AccountsExecutor, workspace: string, credits: number): Promise<number> {
  const row = await trx
    .updateTable('workspaces')
    .set((eb) => ({ credits: eb('credits', '+', credits) }))
    .where('id', '=', workspace)
    .returning('credits')
    .executeTakeFirst();
  return row ? readInt(row.credits) : 0;
}

/** Gives the credits of the workspace's expired leases (processes that died) back to its balance. */
export async function reclaimExpired(trx: AccountsExecutor, workspace: string, now: number): Promise<number> {
  const expired = await trx
    .selectFrom('credit_leases')
    .select(['id', 'held'])
    .where('workspace_id', '=', workspace)
    .where('expires_at', '<', now)
    .execute();
  if (expired.length === 0) return 0;
  await trx
    .deleteFrom('credit_leases')
    .where(
      'id',
      'in',
      expired.map((row) => row.id),
    )
    .execute();
  const held = expired.reduce((sum, row) => sum + readInt(row.held), 0);
  if (held > 0) await addBalance(trx, workspace, held);
  return held;
}

/**
 * Pays the claims that the balance covers, in order (each weighed with the ones accepted before it;
 * a claim that does not fit is refused and later ones may still fit), after adding `returned` (the
 * process's unspent credits) to the balance, and leases a block more when the balance is large.
 */
export function take(
  db: AccountsDb,
  lease: string,
  workspace: string,
  claims: readonly Claim[],
  returned: number,
  now = Date.now(),
): Promise<Taken> {
  return db.transaction().execute(async (trx) => {
    await touch(trx, lease, workspace, now);
    if (returned > 0 && (await release(trx, lease, returned))) await addBalance(trx, workspace, returned);
    let reclaimed = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const row = await trx.selectFrom('workspaces').select('credits').where('id', '=', workspace).executeTakeFirst();
      const before = row ? readInt(row.credits) : 0;
      let total = 0;
      const accepted = claims.map((claim) => {
        const fits = total + Math.max(claim.credits, claim.required) <= before;
        if (fits) total += claim.credits;
        return fits;
      });
      if (!reclaimed && accepted.includes(false)) {
        reclaimed = true;
        if ((await reclaimExpired(trx, workspace, now)) > 0) continue;
      }
      const extra = leaseBlock(before - total);
      const taken = total + extra;
      if (taken === 0) return { accepted, before, extra: 0, after: before };
      const debited = await trx
        .updateTable('workspaces')
        .set((eb) => ({ credits: eb('credits', '-', taken) }))
        .where('id', '=', workspace)
        .where('credits', '>=', taken)
        .returning('credits')
        .executeTakeFirst();
      // The balance changed since it was read (another process, a grant): weigh the claims again.
      if (!debited) continue;
      await addHeld(trx, lease, taken);
      return { accepted, before, extra, after: readInt(debited.credits) };
    }
    throw new Error(`Could not charge workspace ${workspace}: its balance kept changing`);
  });
}

/** Gives unspent or refunded credits back to the balance; the balance after. */
export function giveBack(db: AccountsDb, lease: string, workspace: string, credits: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (await release(trx, lease, credits)) return addBalance(trx, workspace, credits);
    const row = await trx.selectFrom('workspaces').select('credits').where('id', '=', workspace).executeTakeFirst();
    return row ? readInt(row.credits) : 0;
  });
}

/** Credits logged as spent (their usage rows are written in the same transaction), and the lease renewed. */
export async function spend(trx: AccountsExecutor, lease: string, credits: number, now = Date.now()): Promise<void> {
  await trx
    .updateTable('credit_leases')
    .set((eb) => ({ held: eb('held', '-', credits), expires_at: now + LEASE_TTL_MS }))
    .where('id', '=', lease)
    .execute();
}

/** A process's rows that hold nothing any more (at shutdown, after giving everything back). */
export async function dropEmpty(db: AccountsDb, leases: readonly string[]): Promise<void> {
  if (leases.length)
    await db
      .deleteFrom('credit_leases')
      .where('id', 'in', [...leases])
      .where('held', '=', 0)
      .execute();
}
