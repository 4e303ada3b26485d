/**
 * The content stages through a real content worker against the same stages in-process: the same
 * type, metadata and outputs come back, a plugin's TrawlError keeps its code and stage, the
 * deadline stops a worker mid-parse with the scrape's own error, and pool failures map to answers.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { builtinPlugins } from '../../plugins/index.ts';
import { testConfig, testRequest } from '../helpers/plugin-context.ts';
import { ContentRunner, createContentPool, poolFailure } from '../../core/content-runner.ts';
import { CONTENT_KINDS } from '../../core/content-task.ts';
import { FETCHER_ID } from '../../core/data-bag.ts';
import { PageDocument } from '../../core/document.ts';
import type { FetchedResponse } from '../../core/net/response.ts';
import { TrawlError } from '../../core/errors.ts';
import { createJob } from '../../core/job.ts';
import { textOnFirstRead } from '../../core/response-text.ts';
import { PluginRegistry } from '../../core/registry.ts';
import { WorkerPoolError } from '../../core/workers/pool.ts';
import { MISBEHAVING_TYPE } from '../fixtures/misbehaving-plugins.ts';

const logger = pino({ level: 'silent' });
const config = testConfig({ workers: { size: 1, maxRssMb: 0 } });
const registry = new PluginRegistry(builtinPlugins, config);
await registry.setup(
  () => ({
    logger,
    config,
    resolve: () => {
      throw new Error('no services');
    },
  }),
  CONTENT_KINDS,
);
const plugins = { module: new URL('../../plugins/index.ts', import.meta.url).href, name: 'builtinPlugins' };
const pool = createContentPool(config, plugins);
const inWorker = new ContentRunner(registry, logger, { pool, config });
const inProcess = new ContentRunner(registry, logger);
afterAll(() => pool.close());

const PAGE = `<!doctype html><html lang="en"><head><title>Harbour news</title><meta name="description" content="Ferries."></head>
<body><nav><a href="/">Home</a></nav><article><h1>Ferry timetable</h1><p>The <a href="/ferry">ferry</a> leaves at nine, every day of the week.</p></article></body></html>`;

function response(html: string, mediaType = 'text/html'): FetchedResponse {
  return {
    status: 200,
    headers: { 'content-type': mediaType },
    body: new TextEncoder().encode(html),
    finalUrl: 'https://example.com/news',
    mediaType,
    text: html,
    charset: 'utf-8',
  };
}

function documentFor(html: string, options: { mediaType?: string; timeoutMs?: number } = {}): PageDocument {
  const request = testRequest({ url: 'https://example.com/news', formats: ['markdown', 'links', 'text', 'rawHtml'] });
  const timeout = options.timeoutMs ?? 30_000;
  const controller = new AbortController();
  setTimeout(() => controller.abort(new TrawlError('timeout', `Scrape timed out after ${timeout} ms`)), timeout).unref();
  const doc = new PageDocument(createJob(request, 'default', controller.signal, Date.now() + timeout));
  doc.response = response(html, options.mediaType);
  doc.data.set(FETCHER_ID, 'fetcher.http');
  return doc;
}

describe('content stages in a worker', () => {
  test('give what they give in-process', async () => {
    const here = documentFor(PAGE);
    const there = documentFor(PAGE);
    expect(await inProcess.run(here, false)).toEqual({});
    expect(await inWorker.run(there, false)).toEqual({});
    expect(there.type).toBe('document.html');
    expect(there.outputs).toEqual(here.outputs);
    expect(there.metadata).toEqual(here.metadata);
    expect(there.outputs.markdown).toContain('The [ferry](https://example.com/ferry) leaves at nine');
    expect(Object.keys(there.timings)).toEqual(expect.arrayContaining(['detect', 'transform', 'format']));
    expect(there.data.get(FETCHER_ID)).toBe('fetcher.http');
  });

  test('a UTF-8 page whose text the fetcher left undecoded is decoded in the worker only', async () => {
    const here = documentFor(PAGE);
    const there = documentFor(PAGE);
    const body = there.response!.body;
    let decodes = 0;
    delete there.response!.text;
    textOnFirstRead(there.response!, () => {
      decodes++;
      return new TextDecoder().decode(body);
    });
    await inProcess.run(here, false);
    await inWorker.run(there, false);
    expect(decodes).toBe(0);
    expect(there.outputs).toEqual(here.outputs);
    expect(there.outputs.rawHtml).toBe(PAGE);
  });

  test("a plugin's error comes back as the TrawlError it was", async () => {
    const error = await inWorker.run(documentFor('{}', { mediaType: 'application/x-unknown' }), false).catch((e) => e);
    expect(error).toBeInstanceOf(TrawlError);
    expect(error).toMatchObject({
      code: 'unsupported_content',
      status: 422,
      stage: 'detect',
      message: 'Unsupported content type: application/x-unknown',
    });
  });

  test('an app shell asks the browser to render it', async () => {
    const shell =
      '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>';
    expect(await inWorker.run(documentFor(shell), false)).toEqual({ rerender: 'fetcher.browser' });
    expect(await inWorker.run(documentFor(shell), true)).toEqual({});
  });

  test("the deadline stops a worker mid-parse with the scrape's error, and the next page runs", async () => {
    const doc = documentFor(`<body>${'<p>x</p>'.repeat(1_000_000)}</body>`, { timeoutMs: 300 });
    const started = performance.now();
    const error = await inWorker.run(doc, false).catch((e) => e);
    expect(error).toMatchObject({ code: 'timeout', message: 'Scrape timed out after 300 ms' });
    expect(performance.now() - started).toBeLessThan(300 + 250);
    expect(pool.stats().replaced).toBeGreaterThanOrEqual(1);
    await inWorker.run(documentFor(PAGE), false);
  });
});

test("a worker's heap over workers.memoryLimitMb stops the page at the next stage: a 422 naming the limit", async () => {
  const tight = testConfig({ workers: { size: 1, maxRssMb: 0, memoryLimitMb: 1 } });
  const small = createContentPool(tight, plugins);
  try {
    const error = await new ContentRunner(registry, logger, { pool: small, config: tight }).run(documentFor(PAGE), false).catch((e) => e);
    expect(error).toMatchObject({ code: 'unprocessable', status: 422, message: expect.stringContaining('workers.memoryLimitMb') });
  } finally {
    small.close();
  }
});

test('pool failures map to answers: memory and crashes 422, a full queue or closed pool 503', () => {
  const job = documentFor(PAGE).job;
  const answer = (kind: ConstructorParameters<typeof WorkerPoolError>[0]) =>
    poolFailure(new WorkerPoolError(kind, 'x'), job.signal) as TrawlError;
  expect(answer('memory')).toMatchObject({ status: 422, message: expect.stringContaining('workers.maxRssMb') });
  expect(answer('crashed')).toMatchObject({ status: 422 });
  expect(answer('queue-full')).toMatchObject({ code: 'overloaded', status: 503 });
  expect(answer('closed')).toMatchObject({ code: 'overloaded', status: 503 });
  expect(answer('timeout')).toMatchObject({ code: 'timeout', status: 422 });
});

describe('document parsers in a content worker', () => {
  // The list adds a document type whose parser misbehaves as the file says; its time limit is 300 ms.
  const list = { module: new URL('../fixtures/misbehaving-plugins.ts', import.meta.url).href, name: 'misbehavingPlugins' };
  const parsers = createContentPool(config, list);
  const runner = new ContentRunner(registry, logger, { pool: parsers, config });
  afterAll(() => parsers.close());
  const parse = (mode: string) =>
    runner.run(documentFor(mode, { mediaType: MISBEHAVING_TYPE }), false).then(
      () => 'parsed',
      (err: unknown) => err,
    );

  test.each([
    ['throw', 'Could not read TEST: the file is corrupt or unsupported (unexpected token in stream)'],
    ['refuse', 'Could not read TEST: the file is encrypted and needs a password'],
    ['hang', 'Could not read TEST: parsing took longer than 300 ms'],
    ['wait', 'Could not read TEST: parsing took longer than 300 ms'],
    ['crash', 'Could not read TEST: the parser crashed (async failure inside the library)'],
    ['reject', 'Could not read TEST: the parser crashed (forgotten rejection)'],
    ['exit', 'Could not read TEST: the parser stopped unexpectedly'],
  ])('a parser that does "%s" fails the page with its type\'s 422, and the next page runs', async (mode, message) => {
    const started = performance.now();
    expect(await parse(mode)).toMatchObject({ code: 'unprocessable', status: 422, message });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await parse('ok')).not.toBeInstanceOf(Error);
  });
});
