/**
 * Named locks held until the end of a transaction, for checks that count rows before inserting one
 * (a per-workspace limit): two transactions taking the same name run their check and insert one
 * after the other, so simultaneous creates cannot both pass a limit.
 *
 * Postgres: an advisory transaction lock on the name's 64-bit hash (no row needs to exist to lock
 * it; released at commit or rollback). SQLite: nothing to take — the process's one connection runs
 * transactions one at a time, and another process's writer cannot commit in between (SQLite has a
 * single writer).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function lockUntilCommit(trx: Kysely<any>, name: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
}
