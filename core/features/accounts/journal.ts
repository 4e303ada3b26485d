/**
 * The usage log's writer for calls paid from a purse (purse.ts): each call's row is written once,
 * complete, when the call has ended — behind its answer — and the rows of calls ending within
 * 20 ms go in one transaction with the lease update that logs their credits as spent
 * (leases.ts), so a lease's `held` and the log always agree. Postgres gets the batch as one
 * statement, committed asynchronously: a database crash may lose the last rows, and with them the
 * matching `spend`, so their credits are given back rather than charged unlogged. SQLite runs the
 * insert and the lease updates in one transaction.
 */
import type { Insertable } from 'kysely';
import { createTickBatcher } from '../../batching.ts';
import { LEASE_TTL_MS } from './leases.ts';
import type { Purse } from './purse.ts';
import { executor, type Exec } from './sql.ts';
import type { AccountsDb, UsageLogTable } from './tables.ts';

/** Rows per transaction at most. */
const MAX_ROWS = 512;
/** How long rows wait for others before they are written. */
const GATHER_MS = 20;

type Row = Insertable<UsageLogTable> & { credits: number };
const COLUMNS = [
  'id',
  'workspace_id',
  'endpoint',
  'url',
  'credits',
  'status',
  'error',
  'duration_ms',
  'result_id',
  'run_id',
  'created_at',
  'finished_at',
] as const;

const SQLITE = { spend: 'update credit_leases set held = held - ?, expires_at = ? where id = ?' };
/**
 * SQLite: the rows with bound values (half the CPU of reading them out of JSON), in statements of
 * 64, 8 and 1 rows: three fixed texts, prepared once, whatever the size of the batch.
 */
const CHUNKS = [64, 8, 1];
const SQLITE_INSERT = new Map(
  CHUNKS.map((n) => [
    n,
    `insert into usage_log (${COLUMNS.join(', ')}) values ${Array.from({ length: n }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}`,
  ]),
);
/** Postgres: the rows as one JSON parameter (a native stringify; many bound values cost the driver more). */
const POSTGRES = `with cfg as (select set_config('synchronous_commit', 'off', true)),
  rows as (insert into usage_log (${COLUMNS.join(', ')}) select ${COLUMNS.join(', ')} from json_populate_recordset(null::usage_log, ?::json) returning 1)
  update credit_leases l set held = l.held - s.spent, expires_at = ? from unnest(?::text[], ?::bigint[]) as s(id, spent), cfg
  where l.id = s.id`;

export interface Journal {
  /** Resolves once the row is in the database. */
  write(row: Row): Promise<void>;
  settle(): Promise<void>;
}

export function createJournal(db: AccountsDb, dialect: 'sqlite' | 'postgres', purse: Purse): Journal {
  const exec: Exec = executor(dialect);
  const rows = createTickBatcher<Row, void>(
    async (batch) => {
      const spent = new Map<string, number>();
      for (const row of batch) spent.set(row.workspace_id, (spent.get(row.workspace_id) ?? 0) + row.credits);
      const leases = [...spent.keys()].map((workspace) => purse.leaseOf(workspace));
      const expires = Date.now() + LEASE_TTL_MS;
      if (dialect === 'postgres') {
        await exec(db, POSTGRES, [JSON.stringify(batch), expires, leases, [...spent.values()]]);
      } else {
        await db.transaction().execute(async (trx) => {
          for (let at = 0; at < batch.length; ) {
            const n = CHUNKS.find((size) => size <= batch.length - at)!;
            await exec(
              trx,
              SQLITE_INSERT.get(n)!,
              batch.slice(at, at + n).flatMap((row) => COLUMNS.map((column) => row[column] ?? null)),
            );
            at += n;
          }
          let i = 0;
          for (const credits of spent.values()) await exec(trx, SQLITE.spend, [credits, expires, leases[i++]]);
        });
      }
      for (const workspace of spent.keys()) purse.renewed(workspace);
      return batch.map(() => undefined);
    },
    { maxBatch: MAX_ROWS, gatherMs: GATHER_MS },
  );
  return { write: (row) => rows.run(row), settle: () => rows.settle() };
}
