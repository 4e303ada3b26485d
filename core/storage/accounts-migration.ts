/**
 * Migration `0004_accounts`: what a workspace needs to be a cloud account — a plan, a status, a
 * credit balance that can never go below zero, and its own rate limit — and what a key needs to
 * be managed — a label, a display suffix and a revocation time. Core's, because authentication
 * (workspaces.ts) reads these columns in both modes; a self-hosted workspace simply keeps the
 * defaults. SQLite cannot add a column "if not exists" nor roll DDL back, so each column is added
 * only when missing: a run that failed halfway can run again.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

/** The table's columns in the schema this connection works in (Postgres may hold other schemas' tables of the same name). */
async function columnsOf(db: AnyDb, table: string): Promise<Set<string>> {
  // Postgres runs DDL in transactions, SQLite does not: the one difference the adapter exposes that tells them apart.
  const rows = db.getExecutor().adapter.supportsTransactionalDdl
    ? await sql<{
        name: string;
      }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(
        db,
      )
    : await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return new Set(rows.rows.map((r) => r.name));
}

export const accountsMigration: Migration = {
  async up(db: AnyDb) {
    const workspaces = await columnsOf(db, 'workspaces');
    const add = async (table: string, have: Set<string>, column: string, definition: string) => {
      if (!have.has(column)) await sql`alter table ${sql.id(table)} add column ${sql.id(column)} ${sql.raw(definition)}`.execute(db);
    };
    await add('workspaces', workspaces, 'plan', `text not null default 'free'`);
    await add('workspaces', workspaces, 'status', `text not null default 'active'`);
    // The database itself refuses a negative balance: the last line of defence against overspending.
    await add('workspaces', workspaces, 'credits', 'bigint not null default 0 check (credits >= 0)');
    await add('workspaces', workspaces, 'rate_limit', 'integer');
    await add('workspaces', workspaces, 'updated_at', 'text');
    const keys = await columnsOf(db, 'api_keys');
    await add('api_keys', keys, 'name', 'text');
    await add('api_keys', keys, 'suffix', 'text');
    await add('api_keys', keys, 'revoked_at', 'text');
  },
  async down(db: AnyDb) {
    for (const column of ['name', 'suffix', 'revoked_at']) await db.schema.alterTable('api_keys').dropColumn(column).execute();
    for (const column of ['plan', 'status', 'credits', 'rate_limit', 'updated_at'])
      await db.schema.alterTable('workspaces').dropColumn(column).execute();
  },
};
