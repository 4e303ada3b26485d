/**
 * Test schemas on a shared Postgres, and the cleanup of those a run left behind. Each test process
 * is a run with an id; it names its schemas after it (`trawl_test_<run>_<n>`) and holds a session
 * advisory lock on the run for as long as it lives, which Postgres releases when the process ends,
 * however it ends (a crash, a kill, a timeout). Before its first test, each run drops the schemas
 * of runs whose lock is free: what a killed run left behind, never a live run's — whichever
 * checkout or version is running it. Schemas named before runs had ids (`trawl_test_<16 hex>`)
 * carry no lock; they are dropped once their migrations are more than three hours old.
 *
 * test/preload.ts claims the run when TEST_DATABASE_URL is set.
 */
import pg from 'pg';

/** The advisory-lock class of test runs (the lock's first key; the run is the second). */
const LOCK_CLASS = 0x7472_6177;
const RUN_SCHEMA = /^trawl_test_([0-9a-f]{8})_[0-9a-f]+$/;
const LEGACY_SCHEMA = /^trawl_test_[0-9a-f]{16}$/;
const LEGACY_MAX_AGE_MS = 3 * 3600_000;

const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** This process's run. */
export const testRunId = hex(4);

/** The second key of a run's lock: its id as a signed 32-bit integer, as Postgres's int4 wants. */
const runKey = (run: string) => Number.parseInt(run, 16) | 0;

/** A schema name of this run that no other test picks: Postgres-safe, lower case. */
export function runSchemaName(): string {
  return `trawl_test_${testRunId}_${hex(6)}`;
}

let claimed: Promise<string[]> | undefined;

/**
 * Takes this run's lock (once per process) and drops the schemas of finished runs; resolves to the
 * names dropped. The lock's connection stays open, unreferenced, until the process ends.
 */
export function claimTestRun(databaseUrl: string): Promise<string[]> {
  claimed ??= (async () => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: `trawl-test-run ${testRunId}` });
    // The run goes on without its lock if the connection drops; it can only lose its schemas early.
    client.on('error', () => {});
    await client.connect();
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    await client.query('select pg_advisory_lock($1, $2)', [LOCK_CLASS, runKey(testRunId)]);
    return sweepStaleSchemas(databaseUrl);
  })();
  return claimed;
}

/** Drops the schemas of runs that ended (and old unnamed ones); resolves to the names dropped. */
export async function sweepStaleSchemas(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // A schema still in use by a dead run's orphaned server would block the drop: skip it this time.
    await client.query(`set lock_timeout = '2s'`);
    return await sweep(client);
  } finally {
    await client.end();
  }
}

async function sweep(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like 'trawl\\_test\\_%'`);
  const dropped: string[] = [];
  for (const { name } of rows) {
    const run = RUN_SCHEMA.exec(name)?.[1];
    const stale = run ? run !== testRunId && (await runEnded(client, run)) : LEGACY_SCHEMA.test(name) && (await legacyStale(client, name));
    if (!stale) continue;
    try {
      await client.query(`drop schema if exists "${name}" cascade`);
      dropped.push(name);
    } catch {
      // Locked by something still running, or dropped by another run's sweep meanwhile.
    } finally {
      if (run) await client.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, runKey(run)]);
    }
  }
  return dropped;
}

/** True when no process holds the run's lock; the caller then holds it until it unlocks. */
async function runEnded(client: pg.Client, run: string): Promise<boolean> {
  const { rows } = await client.query<{ free: boolean }>('select pg_try_advisory_lock($1, $2) as free', [LOCK_CLASS, runKey(run)]);
  return rows[0]!.free;
}

async function legacyStale(client: pg.Client, schema: string): Promise<boolean> {
  try {
    const { rows } = await client.query<{ newest: string | null }>(`select max(timestamp) as newest from "${schema}".kysely_migration`);
    const newest = rows[0]?.newest ? Date.parse(rows[0].newest) : Number.NaN;
    return Date.now() - newest > LEGACY_MAX_AGE_MS;
  } catch {
    return false; // no migrations table yet: perhaps a run creating it right now
  }
}
