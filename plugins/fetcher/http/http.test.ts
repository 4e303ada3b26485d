// The http fetcher plugin end to end against a local fixture site, through the real HTTP client.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { TrawlError } from '../../../core/kit.ts';
import { startFixtureSite, testConfig, testDocument, testHttpContext } from '../../../core/testing.ts';
import type { FixtureSite } from '../../../core/testing.ts';
import { httpFetcher } from './http.ts';

let site: FixtureSite;
const page = '<!doctype html><html><head><title>Fixture</title></head><body><h1>Hello</h1></body></html>';

beforeAll(() => {
  site = startFixtureSite({
    '/page': page,
    '/old': () => new Response(null, { status: 301, headers: { location: '/page' } }),
    '/gone': { body: '<h1>Page not found</h1>', status: 404 },
    '/headers': (req) => Response.json({ 'x-fetcher': req.headers.get('x-fetcher'), ua: req.headers.get('user-agent') }),
    '/slow': { body: 'late', delayMs: 5000 },
  });
});
afterAll(() => site.stop());

async function setup(pluginOptions: Record<string, unknown> = {}) {
  return httpFetcher.setup(httpFetcher.options!.parse(pluginOptions), testHttpContext());
}

test('takes every job', async () => {
  const fetcher = await setup();
  expect(fetcher.matches(testDocument({ url: site.at('/page') }).job)).toBe(true);
});

test('fills the response and the fetch metadata', async () => {
  const fetcher = await setup();
  const doc = testDocument({ url: site.at('/page') });
  await fetcher.fetch(doc);
  expect(doc.response).toMatchObject({ status: 200, mediaType: 'text/html', text: page, charset: 'utf-8', finalUrl: site.at('/page') });
  expect(doc.metadata).toMatchObject({ statusCode: 200, finalUrl: site.at('/page'), contentType: 'text/html; charset=utf-8' });
  expect(doc.messages).toEqual([]);
});

test('records the URL after redirects', async () => {
  const fetcher = await setup();
  const doc = testDocument({ url: site.at('/old') });
  await fetcher.fetch(doc);
  expect(doc.metadata.finalUrl).toBe(site.at('/page'));
  expect(doc.baseUrl).toBe(site.at('/page'));
  expect(doc.response?.text).toBe(page);
});

test('an error status is kept as content, with the status recorded and a warning', async () => {
  const fetcher = await setup();
  const doc = testDocument({ url: site.at('/gone') });
  await fetcher.fetch(doc);
  expect(doc.response?.status).toBe(404);
  expect(doc.response?.text).toBe('<h1>Page not found</h1>');
  expect(doc.metadata.statusCode).toBe(404);
  expect(doc.messages).toEqual([{ level: 'warning', stage: 'fetch', plugin: 'fetcher.http', message: 'The server answered HTTP 404' }]);
});

test('sends the plugin headers alongside the configured user agent', async () => {
  const fetcher = await setup({ headers: { 'X-Fetcher': 'trawl-http' } });
  const doc = testDocument({ url: site.at('/headers') });
  await fetcher.fetch(doc);
  expect(JSON.parse(doc.response!.text!)).toEqual({ 'x-fetcher': 'trawl-http', ua: testConfig().fetch.userAgent });
});

test('the job timeout bounds the fetch', async () => {
  const fetcher = await setup();
  const doc = testDocument({ url: site.at('/slow'), timeoutMs: 1000 });
  const started = performance.now();
  const err = await fetcher.fetch(doc).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrawlError);
  expect((err as TrawlError).message).toBe('Failed to fetch URL: connection timeout');
  expect(performance.now() - started).toBeLessThan(3000);
  expect(doc.response).toBeNull();
});

test('rejects unknown options', () => {
  expect(() => httpFetcher.options!.parse({ header: {} })).toThrow();
});
