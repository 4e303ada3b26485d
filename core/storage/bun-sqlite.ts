/**
 * Makes a bun:sqlite Database look like the better-sqlite3 subset that kysely's own SqliteDialect
 * drives (`prepare` → `all`/`run`/`iterate`, `reader`, `changes`/`lastInsertRowid`), so Trawl uses
 * the maintained dialect instead of a third-party one and needs no native addon.
 */
import { Database as BunDatabase, type SQLQueryBindings, type Statement } from 'bun:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Kysely prepares on every query; the same SQL repeats constantly (cache lookups), so keep some. */
const STATEMENT_CACHE_SIZE = 200;

function bindings(parameters: ReadonlyArray<unknown>): SQLQueryBindings[] {
  // Booleans are stored as integers (see schema.ts); convert here so SQLite and Postgres agree.
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p)) as SQLQueryBindings[];
}

class BunSqliteStatement implements SqliteStatement {
  readonly #statement: Statement;

  constructor(statement: Statement) {
    this.#statement = statement;
  }

  get reader(): boolean {
    return this.#statement.reader;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...bindings(parameters));
  }

  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint } {
    const { changes, lastInsertRowid } = this.#statement.run(...bindings(parameters));
    return { changes, lastInsertRowid };
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...bindings(parameters));
  }
}

export class BunSqliteAdapter implements SqliteDatabase {
  readonly raw: BunDatabase;
  readonly #cache = new Map<string, Statement>();
  readonly #checkpointer: Worker | null;

  constructor(raw: BunDatabase, checkpointer: Worker | null = null) {
    this.raw = raw;
    this.#checkpointer = checkpointer;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#cache.get(sql);
    if (statement) {
      // Re-insert to mark it most recently used; Map keeps insertion order.
      this.#cache.delete(sql);
    } else {
      statement = this.raw.prepare(sql);
      if (this.#cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#cache.keys().next().value;
        if (oldest !== undefined) {
          this.#cache.get(oldest)?.finalize();
          this.#cache.delete(oldest);
        }
      }
    }
    this.#cache.set(sql, statement);
    // Sharing a cached statement is safe: kysely runs one query at a time on the single SQLite
    // connection (a stream holds it until it ends), and bun:sqlite resets a statement on reuse.
    return new BunSqliteStatement(statement);
  }

  close(): void {
    this.#checkpointer?.terminate();
    for (const statement of this.#cache.values()) statement.finalize();
    this.#cache.clear();
    this.raw.close();
  }
}

/** How often the checkpointer thread copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 500;

/**
 * Opens a bun:sqlite database for Trawl. A file gets WAL (readers never block the writer), a
 * busy timeout (a second process, e.g. the CLI next to the server, waits instead of failing) and
 * its checkpoints on a thread of their own (wal-checkpointer.ts); should that thread fail, the
 * connection checkpoints itself again as SQLite does by default.
 */
export function openBunSqlite(file: string): BunSqliteAdapter {
  const raw = new BunDatabase(file, { create: true });
  let checkpointer: Worker | null = null;
  if (file !== ':memory:') {
    raw.run('PRAGMA busy_timeout = 5000');
    raw.run('PRAGMA journal_mode = WAL');
    // Durable across process crashes under WAL; only an OS crash can lose the last commits.
    raw.run('PRAGMA synchronous = NORMAL');
    raw.run('PRAGMA wal_autocheckpoint = 0');
    checkpointer = new Worker(new URL('./wal-checkpointer.ts', import.meta.url).href);
    checkpointer.addEventListener('error', () => raw.run('PRAGMA wal_autocheckpoint = 1000'));
    checkpointer.postMessage({ file, intervalMs: CHECKPOINT_INTERVAL_MS });
    // Bun's Worker can be unref'd (it then keeps no process alive); its type does not say so.
    (checkpointer as unknown as { unref(): void }).unref();
  }
  // Off by default in SQLite; Postgres always enforces them, so both dialects behave the same.
  raw.run('PRAGMA foreign_keys = ON');
  return new BunSqliteAdapter(raw, checkpointer);
}
