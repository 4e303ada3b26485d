/**
 * The schema history, in code: one migration set for SQLite and Postgres, run at open by kysely's
 * Migrator. Core's migrations are listed here; each feature brings its own (core/feature.ts), which
 * the caller collects (core/feature-migrations.ts) and hands in by name. Nothing is globbed from a
 * folder, so the set is explicit, type-checked and bundled with the code. Only portable column
 * types are used (see schema.ts).
 *
 * Rules for adding one: core names are `nnnn_…` and sort before every feature's
 * (`<feature>.nnnn_…`), so a feature may rely on core's tables; never edit a migration that has
 * shipped, and use `ifNotExists` — SQLite cannot roll DDL back, so a migration that failed halfway
 * must be safe to run again.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { jobsMigration } from '../jobs/migration.ts';
import { jobWorkersMigration } from '../jobs/workers-migration.ts';
import { accountsMigration } from './accounts-migration.ts';
import { schedulesMigration } from '../jobs/schedule-migration.ts';
import { DEFAULT_WORKSPACE } from './workspaces.ts';

// Migrations see the database as it was when they were written, not as schema.ts says today.
type AnyDb = Kysely<any>;

const coreMigrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('workspaces')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('api_keys_workspace').ifNotExists().on('api_keys').column('workspace_id').execute();

      // No foreign key to workspaces: results are a high-volume cache written on every scrape,
      // and their workspace always comes from an authenticated key that already references one.
      await db.schema
        .createTable('results')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('url_hash', 'text', (c) => c.notNull())
        .addColumn('options_hash', 'text', (c) => c.notNull())
        .addColumn('output', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // The response-cache lookup: newest row for one workspace/endpoint/URL/options.
      await db.schema
        .createIndex('results_lookup')
        .ifNotExists()
        .on('results')
        .columns(['workspace_id', 'endpoint', 'url_hash', 'options_hash', 'created_at'])
        .execute();
      // Listing a workspace's results newest first (optionally per endpoint, filtered after).
      await db.schema
        .createIndex('results_workspace_created')
        .ifNotExists()
        .on('results')
        .columns(['workspace_id', 'created_at'])
        .execute();

      await db
        .insertInto('workspaces')
        .values({ id: DEFAULT_WORKSPACE, name: 'Default', created_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('results').ifExists().execute();
      await db.schema.dropTable('api_keys').ifExists().execute();
      await db.schema.dropTable('workspaces').ifExists().execute();
    },
  },
  '0002_jobs_crawls': jobsMigration,
  // 0003 is the webhooks feature's (shipped under that name).
  '0004_accounts': accountsMigration,
  '0005_schedules': schedulesMigration,
  '0006_job_workers': jobWorkersMigration,
};

/** Core's migrations plus these (the features'); a name core already declares is a programming error. */
export function migrationSet(more: Readonly<Record<string, Migration>>): Record<string, Migration> {
  const all: Record<string, Migration> = { ...coreMigrations };
  for (const [name, migration] of Object.entries(more)) {
    if (name in all) throw new Error(`Migration "${name}" is already declared by core`);
    all[name] = migration;
  }
  return all;
}

class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/**
 * Brings the database to the latest schema; a no-op when it is already there. On Postgres,
 * kysely holds an advisory lock meanwhile, so several servers starting at once migrate once.
 * `schema` pins kysely's bookkeeping tables to that Postgres schema: without it the Migrator
 * would find another schema's `kysely_migration` table and believe it was already set up.
 */
export async function migrateToLatest(db: Kysely<any>, migrations: Record<string, Migration>, schema?: string): Promise<void> {
  // Unordered: a feature added later brings migrations that sort before ones a database already ran.
  const migrator = new Migrator({
    db,
    provider: new InCodeMigrationProvider(migrations),
    migrationTableSchema: schema,
    allowUnorderedMigrations: true,
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // Before running anything, kysely lists the tables of every schema to find its own: a schema
    // another process drops meanwhile (a throwaway test schema) fails that listing. Harmless: again.
    if (!failed && (error as { code?: string }).code === '3F000' && attempt < 3) continue;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `Migration ${failed} failed: ${reason}` : `Migrations failed: ${reason}`, { cause: error });
  }
}

/** Names of core's migrations and these, in order; for tests and diagnostics. */
export const migrationNames = (more: Readonly<Record<string, Migration>>): string[] => Object.keys(migrationSet(more)).sort();
