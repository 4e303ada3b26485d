/**
 * Kysely's Postgres dialect with an introspector that survives schemas being dropped meanwhile:
 * kysely lists the tables of every schema (its migrator does so to find its own tables), checking
 * each schema by name, and a schema another client drops during that query fails it with
 * `invalid_schema_name` (3F000). Asking again then sees the catalog without it. Databases that host
 * many schemas coming and going (one per tenant, per test run) hit this at boot otherwise.
 */
import { PostgresDialect, PostgresIntrospector, type DatabaseIntrospector, type Kysely } from 'kysely';

const INVALID_SCHEMA_NAME = '3F000';
const ATTEMPTS = 5;

function steadyIntrospector(inner: DatabaseIntrospector): DatabaseIntrospector {
  return {
    getSchemas: () => inner.getSchemas(),
    async getTables(options) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await inner.getTables(options);
        } catch (err) {
          if ((err as { code?: string }).code !== INVALID_SCHEMA_NAME || attempt >= ATTEMPTS) throw err;
        }
      }
    },
  };
}

export class SteadyPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return steadyIntrospector(new PostgresIntrospector(db));
  }
}
