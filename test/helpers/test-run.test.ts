/**
 * The cleanup of test schemas on a shared Postgres (test-run.ts), with real processes: a live run's
 * schemas are kept, a killed run's are dropped by the next sweep, as are old schemas named before
 * runs had ids; new unnamed ones and this run's own are kept. Runs where TEST_DATABASE_URL is set.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import pg from 'pg';
import { postgresTestUrl } from './databases.ts';
import { runSchemaName, sweepStaleSchemas, testRunId } from './test-run.ts';

if (postgresTestUrl)
  describe('stale test schemas', () => {
    const url = postgresTestUrl!;
    const made: string[] = [];
    const query = async (text: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
    const exists = async (schema: string) => (await query(`select 1 from pg_namespace where nspname = '${schema}'`)).length === 1;
    afterAll(async () => {
      for (const schema of made) await query(`drop schema if exists "${schema}" cascade`);
    });

    /** Another run: a process that claims its id, creates a schema, and waits to be killed. */
    async function otherRun() {
      const script = `
      import { claimTestRun, runSchemaName } from ${JSON.stringify(new URL('./test-run.ts', import.meta.url).pathname)};
      import pg from 'pg';
      await claimTestRun(${JSON.stringify(url)});
      const schema = runSchemaName();
      const client = new pg.Client({ connectionString: ${JSON.stringify(url)} });
      await client.connect();
      await client.query('create schema "' + schema + '"');
      await client.end();
      console.log(schema);
      setInterval(() => {}, 1000);
    `;
      const proc = Bun.spawn(['bun', '-e', script], { stdout: 'pipe', stderr: 'inherit' });
      const reader = proc.stdout.getReader();
      let out = '';
      while (!out.includes('\n')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the other run ended before naming its schema');
        out += new TextDecoder().decode(value);
      }
      const schema = out.trim();
      made.push(schema);
      return { proc, schema };
    }

    test("a live run's schema is kept; once the run is killed, the next sweep drops it", async () => {
      const { proc, schema } = await otherRun();
      expect(schema).toMatch(/^trawl_test_[0-9a-f]{8}_[0-9a-f]{12}$/);
      expect(schema).not.toContain(testRunId);
      expect(await sweepStaleSchemas(url)).not.toContain(schema);
      expect(await exists(schema)).toBe(true);

      proc.kill('SIGKILL');
      await proc.exited;
      // Postgres notices the dropped connection (and frees the lock) a moment later.
      let dropped: string[] = [];
      for (let i = 0; i < 100 && !dropped.includes(schema); i++) {
        dropped = await sweepStaleSchemas(url);
        if (!dropped.includes(schema)) await Bun.sleep(100);
      }
      expect(dropped).toContain(schema);
      expect(await exists(schema)).toBe(false);
    });

    test("this run's schemas are kept; unnamed ones go once their migrations are three hours old", async () => {
      const own = runSchemaName();
      const hex = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16);
      const [old, recent] = [`trawl_test_${hex()}`, `trawl_test_${hex()}`];
      made.push(own, old, recent);
      await query(`create schema "${own}"`);
      for (const [schema, age] of [
        [old, 4 * 3600_000],
        [recent, 60_000],
      ] as const) {
        await query(`create schema "${schema}"; create table "${schema}".kysely_migration (name varchar primary key, timestamp varchar not null);
        insert into "${schema}".kysely_migration values ('0001', '${new Date(Date.now() - age).toISOString()}')`);
      }
      const dropped = await sweepStaleSchemas(url);
      expect(dropped).toContain(old);
      expect(dropped).not.toContain(recent);
      expect(dropped).not.toContain(own);
      expect([await exists(own), await exists(old), await exists(recent)]).toEqual([true, false, true]);
    });
  });
