// Loaded before every test file (bunfig.toml): tsyringe needs the Reflect metadata polyfill, and
// end-to-end tests that start servers, browsers and subprocesses get a generous default timeout
// (this Bun ignores bunfig's [test] timeout, and a preload default did not reach every file in CI,
// so `bun run test` also passes --timeout).
import 'reflect-metadata';
import { setDefaultTimeout } from 'bun:test';

setDefaultTimeout(30_000);
