/**
 * Migration `accounts.0001_usage`: the usage log (one row per billable call or run), the log of
 * credit grants, and the per-minute request counters that every API process shares.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Migrations see the database as it was when they were written, not as tables.ts says today.
type AnyDb = Kysely<any>;

export const usageMigration: Migration = {
  async up(db: AnyDb) {
    // No foreign keys to workspaces: usage and grants are the ledger's history and outlive nothing.
    await db.schema
      .createTable('usage_log')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('url', 'text')
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('result_id', 'text')
      .addColumn('run_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('usage_log_workspace').ifNotExists().on('usage_log').columns(['workspace_id', 'created_at']).execute();
    // Several NULLs are allowed on both dialects: only rows of asynchronous runs are unique here.
    await db.schema.createIndex('usage_log_run').ifNotExists().unique().on('usage_log').column('run_id').execute();

    await db.schema
      .createTable('credit_grants')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('credit_grants_workspace')
      .ifNotExists()
      .on('credit_grants')
      .columns(['workspace_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('rate_limits')
      .ifNotExists()
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limits_pk', ['workspace_id', 'window_start'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('rate_limits').ifExists().execute();
    await db.schema.dropTable('credit_grants').ifExists().execute();
    await db.schema.dropTable('usage_log').ifExists().execute();
  },
};

/**
 * Migration `accounts.0002_leases`: credits each API process holds for a workspace (purse.ts): what
 * it took from the balance and has not yet logged as spent or given back. A process renews its rows
 * while it lives; rows of a process that died are given back to their workspaces once expired.
 */
export const leasesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('credit_leases')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('held', 'bigint', (c) => c.notNull())
      // Epoch milliseconds.
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('credit_leases_workspace')
      .ifNotExists()
      .on('credit_leases')
      .columns(['workspace_id', 'expires_at'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('credit_leases').ifExists().execute();
  },
};

/**
 * Migration `accounts.0003_key_roles`: every API key gets a role, `admin` or `member`. Keys that
 * exist when it runs become `admin` (they could do everything before), and so does any key added
 * without a role (the configured key of a self-hosted server, the operator's keys by default).
 */
export const keyRolesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('api_keys').dropColumn('role').execute();
  },
};
