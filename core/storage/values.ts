/**
 * Conversions between JavaScript values and the portable column encodings of schema.ts. Drivers
 * disagree on what comes back: pg returns bigint/numeric (e.g. `count(*)`) as strings and real
 * booleans, bun:sqlite returns 0/1 for booleans; JSON columns are text on both. Every store reads
 * through these so callers always see plain numbers, booleans and objects. Writing many rows at
 * once goes through `insertRows`, which keeps each statement within what both drivers bind.
 */
import { createHash } from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';

export function readInt(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'bigint' || typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new TypeError(`Expected an integer column value, got ${String(value)}`);
  return n;
}

export function readBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value !== 0 && value !== 0n;
  // Postgres text output for booleans, should a raw query ever return it untyped.
  if (value === 't' || value === 'true' || value === '1') return true;
  if (value === 'f' || value === 'false' || value === '0') return false;
  throw new TypeError(`Expected a boolean column value, got ${String(value)}`);
}

/** Booleans are stored as integers so one migration set serves both dialects. */
export function writeBool(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

export function readJson<T = unknown>(value: unknown): T {
  // A json/jsonb column (should one ever be added on Postgres) arrives already parsed.
  if (typeof value !== 'string') return value as T;
  return JSON.parse(value) as T;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

let lastTimestamp = 0;

/**
 * The current time as an ISO string, strictly increasing within this process. Rows are ordered by
 * `created_at`, and two inserts in the same millisecond would otherwise tie and list in an
 * arbitrary order; nudging by a millisecond keeps "newest first" true to insertion order.
 */
export function nowIso(): string {
  const now = Math.max(Date.now(), lastTimestamp + 1);
  lastTimestamp = now;
  return new Date(now).toISOString();
}

/** A slice of a list: skip `offset` rows, return at most `limit`. */
export interface Window {
  offset: number;
  limit: number;
}

/** A window made safe for a query: `limit` within 1..max, `offset` ≥ 0; a store never runs unbounded. */
export function boundedWindow(query: Window, max: number): Window {
  return { limit: Math.min(Math.max(Math.trunc(query.limit) || 1, 1), max), offset: Math.max(Math.trunc(query.offset) || 0, 0) };
}

/**
 * Rows per INSERT statement when a store writes many at once. Drivers cap the parameters bound to
 * one statement (Postgres 65,535; Bun's SQLite 250,000); 500 rows stay under both for tables of up
 * to 131 columns.
 */
const ROWS_PER_INSERT = 500;

/** Inserts `rows` into `table` in statements of at most ROWS_PER_INSERT rows (in one transaction when `db` is one). */
export async function insertRows<DB, T extends keyof DB & string>(
  db: Kysely<DB> | Transaction<DB>,
  table: T,
  rows: readonly Insertable<DB[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
}
