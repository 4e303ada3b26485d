/**
 * The usage log's writer for calls paid from a purse (purse.ts): each call's row is written once,
 * complete, when the call has ended — behind its answer — and the rows of calls ending together go
 * in one transaction with the lease update that logs their credits as spent (leases.ts `spend`).
 */
import type { Insertable } from 'kysely';
import { createTickBatcher } from '../../batching.ts';
import { spend } from './leases.ts';
import type { Purse } from './purse.ts';
import type { AccountsDb, UsageLogTable } from './tables.ts';

/** Rows per transaction at most. */
const MAX_ROWS = 256;

export interface Journal {
  /** Resolves once the row is in the database. */
  write(row: Insertable<UsageLogTable> & { credits: number }): Promise<void>;
  settle(): Promise<void>;
}

export function createJournal(db: AccountsDb, purse: Purse): Journal {
  const rows = createTickBatcher<Insertable<UsageLogTable> & { credits: number }, void>(async (batch) => {
    const byWorkspace = new Map<string, number>();
    for (const row of batch) byWorkspace.set(row.workspace_id, (byWorkspace.get(row.workspace_id) ?? 0) + row.credits);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('usage_log').values(batch).execute();
      for (const [workspace, credits] of byWorkspace) await spend(trx, purse.leaseOf(workspace), credits);
    });
    for (const workspace of byWorkspace.keys()) purse.renewed(workspace);
    return batch.map(() => undefined);
  }, { maxBatch: MAX_ROWS });
  return { write: (row) => rows.run(row), settle: () => rows.settle() };
}
