/**
 * The fetch stage with blockers: a blocked page is a `blocked` error that stops the run before any
 * sink; `proxy: "auto"` escalates through a rendering fetcher and each pool in order, listing each
 * attempt in the warnings (or in the error's details); a failed connection skips straight to the
 * next route; a source is never swapped for the browser. Fake plugins stand in for real ones: the
 * "site" blocks every route but those a test opens.
 */
import { describe, expect, test } from 'bun:test';
import pino from 'pino';
import { loadConfig } from './config.ts';
import { TrawlError, type BlockedDetails } from './errors.ts';
import { definePlugin, type AnyPlugin } from './plugin.ts';
import { Pipeline } from './pipeline.ts';
import { PluginRegistry } from './registry.ts';
import { testJob } from '../test/helpers/plugin-context.ts';
import { fetchProxy } from './fetch-attempts.ts';
import { Metrics } from './metrics.ts';

interface Site {
  /** `<fetcher>@<route>` pairs that get the real page; every other attempt gets the challenge. */
  open: Set<string>;
  /** Routes whose connection is refused. */
  refused: Set<string>;
  /** Blocks come as a 429 with this Retry-After (seconds). */
  retryAfter?: number;
  attempts: string[];
  sunk: number;
}

const challenge = '<html><head><title>Just a moment...</title></head><body>checking</body></html>';
const realPage = '<html><head><title>Real</title></head><body><p>the article</p></body></html>';

function plugins(site: Site): AnyPlugin[] {
  const fetcher = (name: string, renders: boolean) =>
    definePlugin({
      kind: 'fetcher',
      name,
      description: '',
      setup: () => ({
        renders,
        matches: (job) => name === 'plain' || job.request.render === true,
        fetch: async (doc) => {
          const choice = fetchProxy(doc) ?? 'default';
          const route = choice === 'auto' ? 'default' : choice; // auto's first route is the default one
          const attempt = `${name}@${route}`;
          site.attempts.push(attempt);
          if (site.refused.has(route)) throw new TrawlError('fetch_failed', 'Failed to fetch URL: connection refused');
          const html = site.open.has(attempt) ? realPage : challenge;
          const limited = html !== realPage && site.retryAfter !== undefined;
          doc.response = {
            status: html === realPage ? 200 : limited ? 429 : 403,
            headers: limited ? { 'retry-after': String(site.retryAfter) } : {},
            body: new TextEncoder().encode(html),
            finalUrl: doc.job.url,
            mediaType: 'text/html',
            text: html,
          };
        },
      }),
    });
  return [
    fetcher('browserish', true),
    fetcher('plain', false),
    definePlugin({
      kind: 'document',
      name: 'htmlish',
      description: '',
      setup: () => ({ detect: () => true, parse: (doc) => doc.setContentHtml(doc.response!.text!) }),
    }),
    definePlugin({
      kind: 'format',
      name: 'echo',
      provides: ['format:echo'],
      description: '',
      setup: () => ({ render: (doc) => doc.root!.textContent }),
    }),
    definePlugin({
      kind: 'sink',
      name: 'count',
      description: '',
      setup: () => ({
        write: () => {
          site.sunk++;
        },
      }),
    }),
    definePlugin({
      kind: 'blocker',
      name: 'moment',
      description: '',
      setup: () => ({
        recognise: (page) =>
          page.title === 'Just a moment...' ? { vendor: 'examplecdn', kind: 'challenge' as const, evidence: 'title' } : null,
      }),
    }),
  ] as unknown as AnyPlugin[];
}

async function setup(site: Partial<Site> = {}, pools: string[] = ['office', 'residential']) {
  const state: Site = { open: new Set(), refused: new Set(), attempts: [], sunk: 0, ...site };
  const list = plugins(state);
  const config = loadConfig({ plugins: list, defaultFile: null, env: {} });
  const registry = new PluginRegistry(list, config);
  await registry.setup(() => ({
    logger: pino({ level: 'silent' }),
    config,
    resolve: () => {
      throw new Error('no services');
    },
  }));
  const metrics = new Metrics();
  const pipeline = new Pipeline(registry, pino({ level: 'silent' }), undefined, metrics, pools);
  const run = (request: Record<string, unknown> = {}) =>
    pipeline.run(testJob({ url: 'https://example.com/', formats: ['echo'], ...request }));
  return { state, run, metrics };
}

async function blocked(promise: Promise<unknown>): Promise<TrawlError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrawlError);
  return err as TrawlError;
}

describe('blocked pages', () => {
  test('are a blocked error naming vendor and kind, and reach no sink', async () => {
    const { state, run, metrics } = await setup();
    const err = await blocked(run());
    expect(err.code).toBe('blocked');
    expect(err.status).toBe(422);
    expect(err.message).toBe('Blocked by examplecdn (challenge)');
    expect(err.details).toEqual({ vendor: 'examplecdn', kind: 'challenge', statusCode: 403 });
    expect([err.stage, err.pluginId]).toEqual(['fetch', 'fetcher.plain']);
    expect(state.attempts).toEqual(['plain@default']); // no escalation without "auto"
    expect(state.sunk).toBe(0);
    expect(await metrics.registry.getSingleMetricAsString('trawl_blocked_pages_total')).toContain(
      'trawl_blocked_pages_total{vendor="examplecdn"} 1',
    );
  });

  test("a rate-limit block carries its Retry-After, for the answer's header and for crawls to wait", async () => {
    const { run } = await setup({ retryAfter: 30 });
    const err = await blocked(run());
    expect(err.details).toEqual({ vendor: 'examplecdn', kind: 'challenge', statusCode: 429, retryAfterSeconds: 30 });
    expect(err.headers).toEqual({ 'retry-after': '30' });
  });

  test('a page that is not blocked passes untouched', async () => {
    const { state, run } = await setup({ open: new Set(['plain@default']) });
    const { result } = await run();
    expect(result.formats.echo).toContain('the article');
    expect(result.warnings).toEqual([]);
    expect(state.sunk).toBe(1);
  });
});

describe('proxy: "auto"', () => {
  test('retries through the browser first, with the attempt in the warnings', async () => {
    const { state, run } = await setup({ open: new Set(['browserish@default']) });
    const { result, doc } = await run({ proxy: 'auto' });
    expect(state.attempts).toEqual(['plain@default', 'browserish@default']);
    expect(result.formats.echo).toContain('the article');
    expect(result.warnings.map((w) => w.message)).toEqual([
      'Blocked by examplecdn (challenge) through the default route; tried the next route',
    ]);
    expect(doc.metadata.statusCode).toBeUndefined(); // the fake fetchers set none: nothing leaks from the blocked attempt
  });

  test('then through each pool in configuration order, in the browser', async () => {
    const { state, run } = await setup({ open: new Set(['browserish@residential']) });
    const { result } = await run({ proxy: 'auto' });
    expect(state.attempts).toEqual(['plain@default', 'browserish@default', 'browserish@office', 'browserish@residential']);
    expect(result.warnings).toHaveLength(3);
    expect(result.warnings[2]!.message).toBe(
      'Blocked by examplecdn (challenge) through proxy pool "office" in the browser; tried the next route',
    );
  });

  test('without rendering (render: false) the pools are tried with the plain fetcher', async () => {
    const { state, run } = await setup({ open: new Set(['plain@office']) });
    await run({ proxy: 'auto', render: false });
    expect(state.attempts).toEqual(['plain@default', 'plain@office']);
  });

  test('blocked on every route: the error lists every attempt', async () => {
    const { state, run } = await setup();
    const err = await blocked(run({ proxy: 'auto' }));
    expect(state.attempts).toHaveLength(4);
    expect((err.details as BlockedDetails).attempts).toEqual([
      'the default route: blocked by examplecdn (challenge, HTTP 403)',
      'the browser: blocked by examplecdn (challenge, HTTP 403)',
      'proxy pool "office" in the browser: blocked by examplecdn (challenge, HTTP 403)',
      'proxy pool "residential" in the browser: blocked by examplecdn (challenge, HTTP 403)',
    ]);
    expect(state.sunk).toBe(0);
  });

  test('a refused connection goes straight to the next route, skipping the browser on the same one', async () => {
    const { state, run } = await setup({ refused: new Set(['default']), open: new Set(['browserish@office']) });
    const { result } = await run({ proxy: 'auto' });
    expect(state.attempts).toEqual(['plain@default', 'browserish@office']);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'Fetching through the default route failed (Failed to fetch URL: connection refused); tried the next route',
    ]);
  });

  test('with no pools and a refused connection, the failure is the answer', async () => {
    const { state, run } = await setup({ refused: new Set(['default']) }, []);
    const err = await blocked(run({ proxy: 'auto' }));
    expect(err.code).toBe('fetch_failed');
    expect(state.attempts).toEqual(['plain@default']);
  });
});
