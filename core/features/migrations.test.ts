// Feature migrations on databases migrated before feature modules existed: kysely refuses a
// database whose executed migrations the provider lacks, so the old names must stay resolvable
// and the upgrade must end in the same schema a new database gets. Runs on SQLite and Postgres.
import { afterEach, describe, expect, test } from 'bun:test';
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { defineFeature } from '../feature.ts';
import { featureMigrations } from '../feature-migrations.ts';
import type { Storage } from '../services.ts';
import { jobsMigration } from '../jobs/migration.ts';
import { migrateToLatest, migrationNames, migrationSet } from '../storage/migrations.ts';
import { testDatabases } from '../../test/helpers/databases.ts';
import { crawlTablesMigration } from './crawl/migration.ts';
import { webhooksMigration } from './webhooks/migration.ts';
import { builtinFeatures } from './index.ts';

/**
 * The set the code shipped before this change: `0002_jobs_crawls` created the jobs table and the
 * crawl tables in one migration (its two halves are today's core and crawl migrations, unchanged).
 */
const legacyMigrations = (): Record<string, Migration> => ({
  '0001_initial': migrationSet({})['0001_initial']!,
  '0002_jobs_crawls': {
    async up(db) {
      await jobsMigration.up(db);
      await crawlTablesMigration.up(db);
    },
  },
  '0003_webhooks': webhooksMigration,
});

const executed = async (db: Kysely<any>) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);

/** Tables and their columns, dialect-neutral, for comparing two databases. */
async function shape(db: Kysely<any>) {
  const tables = await db.introspection.getTables();
  return Object.fromEntries(tables.map((t) => [t.name, t.columns.map((c) => `${c.name}:${c.dataType}:${c.isNullable}`).sort()]).sort());
}

/** Empties a freshly opened database, so the legacy set can run as the old code ran it. */
async function wipe(storage: Storage): Promise<string | undefined> {
  const db = storage.db as Kysely<any>;
  for (const table of [
    'crawl_urls',
    'crawls',
    'webhook_deliveries',
    'webhooks',
    'jobs',
    'results',
    'api_keys',
    'workspaces',
    'kysely_migration',
    'kysely_migration_lock',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  if (storage.dialect !== 'postgres') return undefined;
  return (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
}

for (const database of testDatabases()) {
  describe(`${database.name}: upgrading a database migrated by the pre-feature code`, () => {
    const opened: Storage[] = [];
    const open = async (features = builtinFeatures) => {
      const storage = await database.open(features);
      opened.push(storage);
      return storage;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    test('runs only the new migrations and ends with the schema of a new database', async () => {
      const old = await open([]);
      const schema = await wipe(old);
      await migrateToLatest(old.db, legacyMigrations(), schema);
      await old.db.insertInto('workspaces').values({ id: 'kept', name: 'Kept', created_at: '2026-01-01T00:00:00Z' }).execute();
      expect(await executed(old.db)).toEqual(['0001_initial', '0002_jobs_crawls', '0003_webhooks']);

      await old.migrate(featureMigrations(builtinFeatures));
      expect(await executed(old.db)).toEqual(migrationNames(featureMigrations(builtinFeatures)));
      expect(await executed(old.db)).toContain('crawl.0001_tables');
      const fresh = await open();
      expect(await shape(old.db)).toEqual(await shape(fresh.db));
      expect((await old.db.selectFrom('workspaces').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['default', 'kept']);
    });

    test('a feature added later migrates a database that already ran migrations sorting after its own', async () => {
      const storage = await open();
      const early = defineFeature({
        name: 'early',
        description: 'test feature whose migration sorts before every executed one',
        migrations: {
          '0000_early': {
            async up(db) {
              await db.schema
                .createTable('early')
                .ifNotExists()
                .addColumn('id', 'text', (c) => c.primaryKey())
                .execute();
            },
          },
        },
      });
      await storage.migrate(featureMigrations([...builtinFeatures, early]));
      expect(await executed(storage.db)).toContain('0000_early');
      await (storage.db as Kysely<any>).insertInto('early').values({ id: 'x' }).execute();
    });
  });
}

describe('migration names', () => {
  test('two features declaring the same migration name are refused', () => {
    const twin = defineFeature({ name: 'twin', description: 'test', migrations: { '0003_webhooks': webhooksMigration } });
    expect(() => featureMigrations([...builtinFeatures, twin])).toThrow('Feature "twin": migration "0003_webhooks" is already declared');
  });

  test('core keeps the names databases have already run; features bring the rest', () => {
    expect(migrationNames({})).toEqual(['0001_initial', '0002_jobs_crawls', '0004_accounts', '0005_schedules', '0006_job_workers']);
    expect(migrationNames(featureMigrations(builtinFeatures))).toEqual([
      '0001_initial',
      '0002_jobs_crawls',
      '0003_webhooks',
      '0004_accounts',
      '0005_schedules',
      '0006_job_workers',
      'accounts.0001_usage',
      'accounts.0002_leases',
      'accounts.0003_key_roles',
      'crawl.0001_tables',
      'crawl.0002_hosts',
      'crawl.0003_retention',
      'crawl.0004_waiting',
      'lead.0001_batches',
      'results.0001_retention',
      'social.0001_monitors',
      'watch.0001_tables',
      'watch.0002_filters',
      'watch.0003_notify',
      'watch.0004_feeds',
    ]);
  });
});
