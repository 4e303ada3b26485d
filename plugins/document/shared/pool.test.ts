// The document worker pool: results, each way a parser can fail, time limits, aborts, and that a
// failed worker is replaced while the main thread carries on.
import { afterAll, expect, test, setDefaultTimeout } from 'bun:test';
import { ParserFailure, ParserPool } from './pool.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const PARSER = new URL('./fixtures/test-parser.ts', import.meta.url).href;
const pool = new ParserPool(2);
afterAll(() => pool.close());

const run = (mode: string, timeoutMs = 10_000, signal?: AbortSignal) => pool.run(PARSER, new Uint8Array(7), { mode }, { timeoutMs, signal });
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a failure'); }, (err: unknown) => err);

test('runs a parser in a worker and returns its document', async () => {
  expect(await run('ok')).toEqual({ html: '<p>7 bytes</p>', metadata: { title: 'ok' }, warnings: [] });
});

test.each([
  ['throw', 'failed', 'unexpected token in stream'],
  ['refuse', 'refused', 'the file is encrypted and needs a password'],
  ['crash', 'crashed', 'the parser crashed (async failure inside the library)'],
  ['reject', 'crashed', 'the parser crashed (forgotten rejection)'],
  ['exit', 'crashed', 'the parser stopped unexpectedly'],
])('a parser that does "%s" fails as %s, and the pool keeps working', async (mode, kind, message) => {
  const err = await failure(run(mode));
  expect(err).toBeInstanceOf(ParserFailure);
  expect(err).toMatchObject({ kind, message });
  expect(await run('ok')).toMatchObject({ html: '<p>7 bytes</p>' });
});

test('a hanging parser is stopped at its time limit and its worker replaced', async () => {
  const err = await failure(run('hang', 300));
  expect(err).toMatchObject({ kind: 'timeout', message: 'parsing took longer than 300 ms' });
  expect(pool.workers).toBeLessThanOrEqual(2);
  expect(await run('ok')).toMatchObject({ html: '<p>7 bytes</p>' });
});

test('aborting the scrape stops the parse with the abort reason', async () => {
  const controller = new AbortController();
  const pending = failure(run('hang', 10_000, controller.signal));
  setTimeout(() => controller.abort(new Error('scrape deadline')), 100);
  expect(((await pending) as Error).message).toBe('scrape deadline');
  const already = failure(run('ok', 10_000, AbortSignal.abort(new Error('gone already'))));
  expect(((await already) as Error).message).toBe('gone already');
});

test('more tasks than workers wait their turn; all finish', async () => {
  const results = await Promise.all(Array.from({ length: 6 }, () => run('ok')));
  expect(results.every((r) => r.html === '<p>7 bytes</p>')).toBe(true);
  expect(pool.workers).toBeLessThanOrEqual(2);
});

test('a hung worker does not block the others', async () => {
  const hung = failure(run('hang', 800));
  expect(await run('ok')).toMatchObject({ html: '<p>7 bytes</p>' });
  expect(await hung).toMatchObject({ kind: 'timeout' });
});
