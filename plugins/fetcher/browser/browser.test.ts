// The browser fetcher plugin against real Chromium and a fixture site: which jobs it takes, the
// rendered response it hands to the pipeline, non-HTML answers, failures in the HTTP client's
// wording, the SSRF guard's refusals as warnings and errors, and the automatic-rendering decision.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { parseHtmlDocument, Tokens } from '../../../core/kit.ts';
import type { ActionCatalog, BrowserPool } from '../../../core/kit.ts';
import {
  failure,
  forbiddenAddressReason,
  requireChromium,
  startFixtureSite,
  testBrowserPool,
  testConfig,
  testContext,
  testDocument,
  testJob,
} from '../../../core/testing.ts';
import type { AddressPolicy, FixtureSite } from '../../../core/testing.ts';
import { browserFetcher } from './browser.ts';
import { navigationFailure } from './navigate.ts';

const noActions: ActionCatalog = { find: () => undefined, types: () => [] };
/** 127.0.0.1 (the fixture sites) plays a public server; anything else is refused as usual. */
const policy: AddressPolicy = (ip) => (ip === '127.0.0.1' ? null : (forbiddenAddressReason(ip) ?? 'test safety net: only loopback'));
const guarded = { fetch: { allowPrivateNetwork: false } };
/** One pool (one browser) per configuration, shared by the tests. */
const pools = new Map<string, BrowserPool>();
let site: FixtureSite;
let closedPort: number;

beforeAll(() => {
  requireChromium();
  site = startFixtureSite({
    '/page':
      '<html><head><title>Static</title></head><body><h1>Hi</h1><script>document.body.insertAdjacentHTML("beforeend", "<p id=late>Added by script</p>")</script></body></html>',
    '/data.json': { body: '{"tide":"high"}', headers: { 'content-type': 'application/json' } },
    '/gone': { status: 404, body: '<h1>Not here</h1>' },
  });
  const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  closedPort = Number(closed.port);
  closed.stop(true);
});
afterAll(async () => {
  await Promise.all([...pools.values()].map((p) => p.close()));
  await site.stop();
});

async function fetcher(overrides: Record<string, unknown> = {}) {
  const config = testConfig(overrides);
  const key = JSON.stringify(overrides);
  const pool = pools.get(key) ?? testBrowserPool(overrides, { addressPolicy: policy });
  pools.set(key, pool);
  return browserFetcher.setup(
    browserFetcher.options!.parse({}),
    testContext(
      [
        [Tokens.Browser, pool],
        [Tokens.Actions, noActions],
      ],
      config,
    ),
  );
}

test('an unknown mobile device stops the boot, naming the key', async () => {
  const ctx = testContext([
    [Tokens.Browser, testBrowserPool()],
    [Tokens.Actions, noActions],
  ]);
  const error = await failure(Promise.resolve(browserFetcher.setup(browserFetcher.options!.parse({ mobileDevice: 'Nokia 3310' }), ctx)));
  expect(error.message).toStartWith('Invalid configuration at plugins.fetcher.browser.mobileDevice: unknown device "Nokia 3310"');
  expect(await browserFetcher.setup(browserFetcher.options!.parse({ mobileDevice: 'iPhone 15' }), ctx)).toBeDefined();
});

test('takes only the jobs that need a browser', async () => {
  const handler = await fetcher();
  const takes = (request: Record<string, unknown>) => handler.matches(testJob({ url: 'https://example.com/', ...request }));
  expect(takes({})).toBe(false);
  expect(takes({ render: false })).toBe(false);
  expect(takes({ render: true })).toBe(true);
  expect(takes({ mobile: true })).toBe(true);
  expect(takes({ screenshot: true })).toBe(true);
  expect(takes({ formats: ['markdown', 'screenshot'] })).toBe(true);
  expect(takes({ actions: [{ type: 'wait', ms: 1 }] })).toBe(true);
});

test('hands the rendered DOM to the pipeline as an HTML response', async () => {
  const handler = await fetcher();
  const doc = testDocument({ url: site.at('/page'), render: true });
  await handler.fetch(doc);
  expect(doc.response).toMatchObject({ status: 200, mediaType: 'text/html', charset: 'utf-8', finalUrl: site.at('/page') });
  expect(doc.response!.text).toContain('<p id="late">Added by script</p>');
  expect(new TextDecoder().decode(doc.response!.body)).toBe(doc.response!.text!);
  expect(doc.metadata).toMatchObject({
    statusCode: 200,
    finalUrl: site.at('/page'),
    contentType: 'text/html; charset=utf-8',
    rendered: true,
  });
});

test('a JSON answer keeps its bytes and type; an error status is content with a warning', async () => {
  const handler = await fetcher();
  const json = testDocument({ url: site.at('/data.json'), render: true });
  await handler.fetch(json);
  expect(json.response).toMatchObject({ mediaType: 'application/json', text: '{"tide":"high"}' });
  const gone = testDocument({ url: site.at('/gone'), render: true });
  await handler.fetch(gone);
  expect(gone.metadata.statusCode).toBe(404);
  expect(gone.messages.map((m) => m.message)).toEqual(['The server answered HTTP 404']);
});

describe('failures read like the HTTP client', () => {
  test('a refused connection, directly and through the guard proxy', async () => {
    const direct = await fetcher();
    expect((await failure(direct.fetch(testDocument({ url: `http://127.0.0.1:${closedPort}/`, render: true })))).message).toBe(
      'Failed to fetch URL: connection refused',
    );
    const viaProxy = await fetcher(guarded);
    expect((await failure(viaProxy.fetch(testDocument({ url: `http://127.0.0.1:${closedPort}/`, render: true })))).message).toBe(
      'Failed to fetch URL: connection refused',
    );
  });

  test('Chromium error codes and timeouts', () => {
    const timeout = Object.assign(new Error('page.goto: Timeout 500ms exceeded.'), { name: 'TimeoutError' });
    expect(navigationFailure(timeout, 'http://a.test/', [], 500).message).toBe('Failed to fetch URL: timed out after 500 ms');
    expect(navigationFailure(new Error('page.goto: net::ERR_NAME_NOT_RESOLVED at http://a.test/'), 'http://a.test/', [], 1).message).toBe(
      'Failed to fetch URL: could not resolve host a.test',
    );
    expect(navigationFailure(new Error('page.goto: net::ERR_CERT_DATE_INVALID at https://a.test/'), 'https://a.test/', [], 1).message).toBe(
      'Failed to fetch URL: TLS error: ERR_CERT_DATE_INVALID',
    );
    const tunnel = new Error('page.goto: net::ERR_TUNNEL_CONNECTION_FAILED at https://a.test/');
    expect(
      navigationFailure(
        tunnel,
        'https://a.test/',
        [{ url: 'https://a.test:443', reason: 'address 10.0.0.1 is not allowed (private network)', refused: true }],
        1,
      ).message,
    ).toBe('Failed to fetch URL: address 10.0.0.1 is not allowed (private network)');
  });
});

describe('SSRF guard', () => {
  let page: FixtureSite;
  beforeAll(() => {
    page = startFixtureSite({
      '/with-internal-image': '<title>Outside</title><p>Public text</p><img src="http://127.0.0.2:8089/secret.png">',
      '/into-internal': () => new Response(null, { status: 302, headers: { location: 'http://127.0.0.2:8089/admin' } }),
    });
  });
  afterAll(() => page.stop());

  test('a blocked sub-request is a warning; the page still renders', async () => {
    const handler = await fetcher(guarded);
    const doc = testDocument({ url: page.at('/with-internal-image'), render: true });
    await handler.fetch(doc);
    expect(doc.response!.text).toContain('Public text');
    expect(doc.messages.map((m) => m.message)).toEqual([
      'Blocked 1 request(s) of the page: http://127.0.0.2:8089/secret.png (address 127.0.0.2 is not allowed (loopback address))',
    ]);
  });

  test('the page itself at, or redirected to, a forbidden address fails with the reason (and, self-hosted, the setting)', async () => {
    const reason = 'Failed to fetch URL: address 127.0.0.2 is not allowed (loopback address)';
    const hint = '; set fetch.allowPrivateNetwork = true (or TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true) to allow private addresses';
    for (const [overrides, expected] of [
      [guarded, reason + hint],
      [{ ...guarded, mode: 'cloud' }, reason],
    ] as const) {
      const handler = await fetcher(overrides);
      expect((await failure(handler.fetch(testDocument({ url: 'http://127.0.0.2:8089/', render: true })))).message).toBe(expected);
      expect((await failure(handler.fetch(testDocument({ url: page.at('/into-internal'), render: true })))).message).toBe(expected);
    }
  });
});

describe('automatic rendering', () => {
  const shellDoc = (request: Record<string, unknown> = {}) => {
    const doc = testDocument({ url: 'https://example.com/', ...request });
    doc.type = 'document.html';
    doc.dom = parseHtmlDocument('<body><div id="root"></div><script src="/app.js"></script></body>');
    return doc;
  };

  const rerender = (doc: ReturnType<typeof shellDoc>, options: Record<string, unknown> = {}) =>
    browserFetcher.rerender!(doc, browserFetcher.options!.parse(options));

  test('asks to render an app shell, unless the request or the config says no', () => {
    expect(rerender(shellDoc())).toBe(true);
    expect(rerender(shellDoc({ render: false }))).toBe(false);
    expect(rerender(shellDoc(), { autoRender: false })).toBe(false);
  });

  test('never for other documents or without Chromium', async () => {
    const pdf = shellDoc();
    pdf.type = 'document.pdf';
    expect(rerender(pdf)).toBe(false);
    expect((await fetcher()).canRefetch!()).toBe(true);
    expect((await fetcher({ browser: { executablePath: '/nonexistent/chromium' } })).canRefetch!()).toBe(false);
  });
});
