/**
 * The databases a storage-backed test suite runs on: SQLite in memory always, and Postgres too when
 * TEST_DATABASE_URL is set (CI sets it). Each `open()` gives a fresh, migrated, empty database —
 * on Postgres a throwaway schema that `close()` drops — so suites never see each other's rows.
 *
 *   for (const database of testDatabases()) {
 *     describe(database.name, () => {
 *       let storage: Storage;
 *       beforeEach(async () => { storage = await database.open(); });
 *       afterEach(() => storage.close());
 *       …
 *     });
 *   }
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../core/storage/db.ts';
import type { AnyFeature } from '../../core/feature.ts';
import { featureMigrations } from '../../core/feature-migrations.ts';
import { builtinFeatures } from '../../core/features/index.ts';
import type { Storage } from '../../core/services.ts';
import { sql } from 'kysely';
import { runSchemaName } from './test-run.ts';

export interface TestDatabase {
  readonly name: Storage['dialect'];
  /**
   * A fresh, migrated, empty storage (core's and the features' tables; the built-in features by
   * default); its close() also removes whatever the test created.
   */
  open(features?: readonly AnyFeature[]): Promise<Storage>;
}

export const postgresTestUrl: string | undefined = process.env.TEST_DATABASE_URL || undefined;

/**
 * A schema name no other test picks, carrying this run's id, so that a later run drops it if this
 * one dies before its close() does (test/helpers/test-run.ts).
 */
export const randomSchemaName = runSchemaName;

async function openPostgresInFreshSchema(databaseUrl: string, features: readonly AnyFeature[]): Promise<Storage> {
  const schema = randomSchemaName();
  const storage = await openStorage({ databaseUrl, dataDir: ':memory:', schema, poolSize: 4, migrations: featureMigrations(features) });
  let closing: Promise<void> | undefined;
  return {
    dialect: storage.dialect,
    db: storage.db,
    migrate: (migrations) => storage.migrate(migrations),
    ping: () => storage.ping(),
    close() {
      closing ??= (async () => {
        try {
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(storage.db);
        } finally {
          await storage.close();
        }
      })();
      return closing;
    },
  };
}

export function testDatabases(): TestDatabase[] {
  const databases: TestDatabase[] = [
    {
      name: 'sqlite',
      open: (features = builtinFeatures) =>
        openStorage({ dataDir: ':memory:', sqliteFile: ':memory:', migrations: featureMigrations(features) }),
    },
  ];
  const url = postgresTestUrl;
  if (url) databases.push({ name: 'postgres', open: (features = builtinFeatures) => openPostgresInFreshSchema(url, features) });
  return databases;
}

/**
 * A database for Trawl processes a test starts (`bun server/main.ts`, the CLI): the environment
 * that points them at it, and a cleanup. SQLite: a temporary data directory. Postgres: a fresh
 * schema, migrated with the built-in features, handed to the processes through `search_path`
 * (`storage` reads and writes the same schema from the test).
 */
export interface ProcessDatabase {
  readonly name: Storage['dialect'];
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export async function postgresProcessDatabase(
  url: string,
  features: readonly AnyFeature[] = builtinFeatures,
): Promise<ProcessDatabase & { storage: Storage }> {
  const schema = randomSchemaName();
  const storage = await openStorage({
    databaseUrl: url,
    dataDir: ':memory:',
    schema,
    poolSize: 4,
    migrations: featureMigrations(features),
  });
  const databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    name: 'postgres',
    storage,
    env: { DATABASE_URL: databaseUrl },
    async cleanup() {
      try {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(storage.db);
      } finally {
        await storage.close();
      }
    },
  };
}

export function sqliteProcessDatabase(): ProcessDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-processes-'));
  return { name: 'sqlite', env: { TRAWL_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** SQLite always, Postgres when TEST_DATABASE_URL is set. */
export function processDatabases(): Array<[Storage['dialect'], () => Promise<ProcessDatabase>]> {
  const list: Array<[Storage['dialect'], () => Promise<ProcessDatabase>]> = [['sqlite', async () => sqliteProcessDatabase()]];
  if (postgresTestUrl) list.push(['postgres', () => postgresProcessDatabase(postgresTestUrl!)]);
  return list;
}
