/**
 * Opens Trawl's database: Postgres (through `pg`) when a database URL is configured, otherwise the
 * embedded bun:sqlite file `<dataDir>/trawl.db`. Either way core's schema (and that of the
 * migrations passed in, the features') is migrated before the Storage is handed out, so every caller
 * can assume the latest tables exist; `storage.migrate(migrations)` brings in more tables later.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Storage } from '../services.ts';
import { TrawlError } from '../errors.ts';
import type { Database } from './schema.ts';
import { openBunSqlite } from './bun-sqlite.ts';
import { SteadyPostgresDialect } from './postgres-dialect.ts';
import { migrateToLatest, migrationSet } from './migrations.ts';
import type { Migration } from 'kysely/migration';

export interface OpenStorageOptions {
  /** Postgres connection string; when absent, SQLite is used. */
  databaseUrl?: string;
  /** Directory of the SQLite file (created if missing). `:memory:` means an in-memory database. */
  dataDir: string;
  /** Overrides the SQLite file path (`:memory:` for tests); defaults to `<dataDir>/trawl.db`. */
  sqliteFile?: string;
  /** Postgres only: schema to use (created if missing; set as search_path). Lets tests isolate. */
  schema?: string;
  /** Postgres only: maximum pooled connections. */
  poolSize?: number;
  /** Receives errors of idle pooled Postgres connections, which would otherwise crash the process. */
  onPoolError?: (err: Error) => void;
  /** Migrations run with core's at open, by name: the features' (createTrawl migrates its list again: a no-op then). */
  migrations?: Readonly<Record<string, Migration>>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openSqlite(options);
}

async function openSqlite(options: OpenStorageOptions): Promise<Storage> {
  const file = options.sqliteFile ?? (options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'trawl.db'));
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let adapter: ReturnType<typeof openBunSqlite>;
  try {
    adapter = openBunSqlite(file);
  } catch (err) {
    throw storageError(`cannot open SQLite database ${file}`, err);
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adapter }) });
  return finishOpen('sqlite', db, undefined, `SQLite database ${file}`, options.migrations ?? {});
}

async function openPostgres(databaseUrl: string, options: OpenStorageOptions): Promise<Storage> {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new TrawlError('config_invalid', `Invalid Postgres schema name "${schema}": use lower-case letters, digits and _`);
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Set per connection at startup, so every pooled connection sees the same schema. Parallel
    // workers are off there: a worker re-resolves the search path on its own and, with thousands of
    // throwaway schemas in the catalog, was seen to answer that a just-created one does not exist.
    ...(schema ? { options: `-c search_path=${schema} -c max_parallel_workers_per_gather=0` } : {}),
  });
  pool.on('error', (err) => options.onPoolError?.(err));
  // A connection lost while checked out (the database restarted or went away mid-query) also emits
  // 'error', where the pool has no listener: unheard, it would end the process. Its query is
  // rejected with the same error, which the caller sees; idle connections report through the pool.
  pool.on('connect', (client) => client.on('error', () => {}));
  // The cursor makes kysely's `.stream()` work on Postgres as it does on SQLite (large scans).
  const db = new Kysely<Database>({ dialect: new SteadyPostgresDialect({ pool, cursor: Cursor }) });
  const where = `Postgres database ${describeUrl(databaseUrl)}${schema ? ` (schema ${schema})` : ''}`;
  let migrationSchema: string | undefined;
  try {
    if (schema) await createSchema(db, schema);
    // Pin kysely's bookkeeping tables to the schema we work in, not any schema that has them.
    const current = await sql<{ name: string | null }>`select current_schema() as name`.execute(db);
    migrationSchema = current.rows[0]?.name ?? undefined;
  } catch (err) {
    await db.destroy().catch(() => {});
    throw storageError(`cannot connect to ${where}`, err);
  }
  return finishOpen('postgres', db, migrationSchema, where, options.migrations ?? {});
}

async function finishOpen(
  dialect: Storage['dialect'],
  db: Kysely<Database>,
  schema: string | undefined,
  where: string,
  initial: Readonly<Record<string, Migration>>,
): Promise<Storage> {
  const migrate = async (more: Readonly<Record<string, Migration>>) => {
    try {
      await migrateToLatest(db, migrationSet(more), schema);
    } catch (err) {
      throw storageError(`cannot open ${where}`, err);
    }
  };
  try {
    await migrate(initial);
  } catch (err) {
    await db.destroy().catch(() => {});
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    dialect,
    db,
    migrate,
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close() {
      // Shutdown paths may race (signal handler and test teardown); destroy exactly once.
      closing ??= db.destroy();
      return closing;
    },
  };
}

async function createSchema(db: Kysely<Database>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (err) {
    // Two processes creating the same schema at once can both pass "if not exists"; the loser
    // gets a unique violation although the schema is there, which is all we need.
    const found = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(db);
    if (found.rows.length === 0) throw err;
  }
}

function storageError(message: string, cause: unknown): TrawlError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new TrawlError('internal', `Storage: ${message}: ${reason}`, { cause });
}

/** Host, port and database of a connection string, without the credentials, for error messages. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}
