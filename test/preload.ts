// Loaded before every test file (bunfig.toml): tsyringe needs the Reflect metadata polyfill, and
// end-to-end tests that start servers, browsers and subprocesses get a generous default timeout
// (this Bun ignores bunfig's [test] timeout, and a preload default did not reach every file in CI,
// so `bun run test` also passes --timeout). With a shared Postgres, the run takes its id and drops
// the schemas that killed runs left behind (test/helpers/test-run.ts).
import 'reflect-metadata';
import { setDefaultTimeout } from 'bun:test';
import { claimTestRun } from './helpers/test-run.ts';

setDefaultTimeout(30_000);

if (process.env.TEST_DATABASE_URL) {
  const dropped = await claimTestRun(process.env.TEST_DATABASE_URL);
  if (dropped.length > 0) console.error(`Dropped ${dropped.length} test schema(s) left by earlier runs that ended without cleaning up`);
}
