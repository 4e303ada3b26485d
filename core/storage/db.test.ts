// Opening storage: migrations on both dialects, SQLite file settings, errors, and the row
// normalisation that hides driver differences.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { TrawlError } from '../errors.ts';
import type { Storage } from '../services.ts';
import { postgresTestUrl, randomSchemaName, testDatabases } from '../../test/helpers/databases.ts';
import { openStorage } from './db.ts';
import { migrationNames as namesFor } from './migrations.ts';
import { insertRows, nowIso, readBool, readInt, readJson, writeBool } from './values.ts';

// Opened without features: core's migrations only (core/features/migrations.test.ts covers theirs).
const MIGRATION_NAMES = namesFor({});

const migrationNames = async (storage: Storage) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(storage.db)).rows.map((r) => r.name);

describe('sqlite file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'trawl-storage-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('creates <dataDir>/trawl.db, including missing parent directories', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const storage = await openStorage({ dataDir });
    await storage.close();
    expect(existsSync(join(dataDir, 'trawl.db'))).toBe(true);
  });

  test('migrations are idempotent: a second open keeps the data and runs nothing again', async () => {
    const first = await openStorage({ dataDir: dir });
    await first.db.insertInto('workspaces').values({ id: 'kept', name: 'Kept', created_at: nowIso() }).execute();
    await first.close();

    const second = await openStorage({ dataDir: dir });
    expect(await migrationNames(second)).toEqual([...MIGRATION_NAMES]);
    const ids = (await second.db.selectFrom('workspaces').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids).toEqual(['default', 'kept']);
    await second.close();
  });

  test('uses WAL, a busy timeout and enforced foreign keys', async () => {
    const storage = await openStorage({ dataDir: dir });
    const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(storage.db)).rows[0] as object)[0];
    await expect(pragma('journal_mode')).resolves.toBe('wal');
    expect(readInt(await pragma('busy_timeout'))).toBeGreaterThan(0);
    expect(readBool(await pragma('foreign_keys'))).toBe(true);
    await storage.close();
  });

  test('two open handles on one file both work (server and CLI side by side)', async () => {
    const a = await openStorage({ dataDir: dir });
    const b = await openStorage({ dataDir: dir });
    await a.db.insertInto('workspaces').values({ id: 'from-a', name: 'A', created_at: nowIso() }).execute();
    expect(await b.db.selectFrom('workspaces').select('id').where('id', '=', 'from-a').executeTakeFirst()).toEqual({ id: 'from-a' });
    await Promise.all([a.close(), b.close()]);
  });
});

if (postgresTestUrl)
  describe('postgres schema', () => {
    test('migrations are idempotent: a second open on the same schema runs nothing again', async () => {
      const schema = randomSchemaName();
      const first = await openStorage({ databaseUrl: postgresTestUrl, dataDir: ':memory:', schema });
      try {
        await first.db.insertInto('workspaces').values({ id: 'kept', name: 'Kept', created_at: nowIso() }).execute();
        const second = await openStorage({ databaseUrl: postgresTestUrl, dataDir: ':memory:', schema });
        expect(await migrationNames(second)).toEqual([...MIGRATION_NAMES]);
        expect((await second.db.selectFrom('workspaces').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([
          'default',
          'kept',
        ]);
        await second.close();
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(first.db);
        await first.close();
      }
    });

    test('servers starting at once on a new schema both open it; migrations run once', async () => {
      const schema = randomSchemaName();
      const open = () => openStorage({ databaseUrl: postgresTestUrl, dataDir: ':memory:', schema, poolSize: 2 });
      const [a, b] = await Promise.all([open(), open()]);
      try {
        expect(await migrationNames(a)).toEqual([...MIGRATION_NAMES]);
        expect(await b.ping()).toBe(true);
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(a.db);
        await Promise.all([a.close(), b.close()]);
      }
    });
  });

test('sqlite: queries keep working after the prepared-statement cache has evicted them', async () => {
  const storage = await openStorage({ dataDir: ':memory:' });
  const first = () => sql<{ v: number }>`select ${1} as v`.execute(storage.db);
  expect((await first()).rows).toEqual([{ v: 1 }]);
  for (let i = 0; i < 250; i++) await sql.raw(`select ${i} as v`).execute(storage.db);
  expect((await first()).rows).toEqual([{ v: 1 }]);
  await storage.close();
});

describe('open errors', () => {
  test('an invalid Postgres schema name is a config error, before any connection', async () => {
    const opening = openStorage({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', dataDir: ':memory:', schema: 'Bad-Name' });
    await expect(opening).rejects.toMatchObject({ code: 'config_invalid' });
  });

  test('an unreachable Postgres fails with a message that names it but not its password', async () => {
    const error = await openStorage({ databaseUrl: 'postgres://user:s3cret@127.0.0.1:1/trawl', dataDir: ':memory:' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrawlError);
    expect((error as TrawlError).message).toContain('127.0.0.1:1/trawl');
    expect((error as TrawlError).message).not.toContain('s3cret');
  });
});

describe('values', () => {
  test('readInt accepts numbers, bigints and numeric strings, refuses anything else', () => {
    expect(readInt(7)).toBe(7);
    expect(readInt(7n)).toBe(7);
    expect(readInt('42')).toBe(42);
    expect(() => readInt('4.2')).toThrow(TypeError);
    expect(() => readInt(null)).toThrow(TypeError);
  });

  test('readBool maps every driver spelling; writeBool stores integers', () => {
    for (const yes of [true, 1, 1n, 't', 'true', '1']) expect(readBool(yes)).toBe(true);
    for (const no of [false, 0, 0n, 'f', 'false', '0']) expect(readBool(no)).toBe(false);
    expect(() => readBool('maybe')).toThrow(TypeError);
    expect([writeBool(true), writeBool(false)]).toEqual([1, 0]);
  });

  test('readJson parses text and passes through already parsed values', () => {
    expect(readJson('{"a":[1,null]}')).toEqual({ a: [1, null] });
    expect(readJson({ a: 1 })).toEqual({ a: 1 });
  });

  test('nowIso is strictly increasing even within one millisecond', () => {
    const stamps = Array.from({ length: 50 }, () => nowIso());
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!).toBe(true);
  });
});

for (const database of testDatabases()) {
  describe(database.name, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await database.open();
    });
    afterEach(() => storage.close());

    test('reports its dialect, pings, and stops answering once closed', async () => {
      expect(storage.dialect).toBe(database.name);
      expect(await storage.ping()).toBe(true);
      await storage.close();
      expect(await storage.ping()).toBe(false);
    });

    test('the default workspace exists after migration', async () => {
      expect(await storage.db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', 'default').executeTakeFirst()).toEqual({
        id: 'default',
        name: 'Default',
      });
    });

    test('booleans and counts come back differently per driver and normalise to the same values', async () => {
      const row = (await sql<{ flag: unknown; n: unknown }>`select (1 = 1) as flag, count(*) as n from workspaces`.execute(storage.db))
        .rows[0]!;
      // The divergence the helpers exist for: SQLite says 1, Postgres true; Postgres counts are strings.
      expect(typeof row.flag).toBe(database.name === 'sqlite' ? 'number' : 'boolean');
      expect(typeof row.n).toBe(database.name === 'sqlite' ? 'number' : 'string');
      expect(readBool(row.flag)).toBe(true);
      expect(readInt(row.n)).toBe(1);
    });

    test('a JS boolean parameter reads back as true; SQLite binds it as the integer 1', async () => {
      const row = (await sql<{ b: unknown; c: unknown }>`select ${true} as b, ${writeBool(false)} as c`.execute(storage.db)).rows[0]!;
      if (database.name === 'sqlite') expect(row.b).toBe(1);
      expect(readBool(row.b)).toBe(true);
      expect(readBool(row.c)).toBe(false);
    });

    test('insertRows writes more rows than one statement may bind parameters for', async () => {
      // 15,000 job rows of 17 columns are 255,000 parameters: past Postgres's 65,535 and Bun's SQLite's 250,000.
      const now = nowIso();
      const rows = Array.from({ length: 15_000 }, (_, i) => ({
        id: `job-${i}`,
        kind: 'bulk',
        workspace_id: 'default',
        group_id: null,
        concurrency_key: null,
        payload: '{}',
        status: 'queued',
        priority: 0,
        attempts: 0,
        max_attempts: 1,
        run_at: now,
        locked_by: null,
        locked_until: null,
        last_error: null,
        request_id: null,
        created_at: now,
        updated_at: now,
      }));
      await insertRows(storage.db, 'jobs', rows);
      const { n } = await storage.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('kind', '=', 'bulk')
        .executeTakeFirstOrThrow();
      expect(readInt(n)).toBe(15_000);
    });

    test('streams rows', async () => {
      for (const id of ['s1', 's2', 's3'])
        await storage.db.insertInto('workspaces').values({ id, name: id, created_at: nowIso() }).execute();
      const query = storage.db.selectFrom('workspaces').select('id').where('id', 'like', 's%').orderBy('id');
      const seen: string[] = [];
      for await (const row of query.stream(1)) {
        seen.push(row.id);
      }
      expect(seen).toEqual(['s1', 's2', 's3']);
      expect((await query.execute()).length).toBe(3);
    });
  });
}
