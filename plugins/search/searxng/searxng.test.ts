// search.searxng against a protocol-faithful SearXNG (test/servers/searxng.ts), through the real
// plugin and core HTTP client with the SSRF guard on: parameters, paging, locale, and every way an
// instance answers without results (JSON disabled, failing engines, the limiter) as an error.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { providerHandler, rejection, searchQuery, someResults } from '../../../core/testing.ts';
import { searxngTooManyRequests, startSearxngServer } from '../../../test/servers/searxng.ts';
import { searxngSearch } from './searxng.ts';

const server = startSearxngServer({ results: () => someResults(35) });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.jsonEnabled = true;
  server.failingEngines = [];
});

const handler = (options: Record<string, unknown> = {}) => providerHandler(searxngSearch, { url: server.url, ...options });

describe('search.searxng', () => {
  test('asks the JSON API and returns ranked hits with plain text', async () => {
    server.results = () => [{ url: 'https://example.org/a', title: 'A &amp; <b>B</b>', snippet: 'First  result' }];
    const answer = await (await handler()).search(searchQuery('tidal power', { language: 'de', country: 'ch' }));
    expect(answer.hits).toEqual([{ url: 'https://example.org/a', title: 'A & B', description: 'First result', position: 1 }]);
    const [request] = server.requests;
    expect(request!.path).toBe('/search');
    expect(Object.fromEntries(request!.query)).toEqual({ q: 'tidal power', format: 'json', pageno: '1', language: 'de-CH' });
    expect(request!.headers.accept).toBe('application/json');
    server.results = () => someResults(35);
  });

  test('pages until it has enough, and stops at the last page', async () => {
    const search = await handler();
    expect((await search.search(searchQuery('q', { limit: 25 }))).hits.map((h) => h.position)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(server.requests.map((r) => r.query.get('pageno'))).toEqual(['1', '2', '3']);
    server.requests.length = 0;
    expect((await search.search(searchQuery('q', { limit: 50 }))).hits).toHaveLength(35);
    expect(server.requests.map((r) => r.query.get('pageno'))).toEqual(['1', '2', '3', '4', '5']);
  });

  test('a trailing slash on the base URL makes no double slash', async () => {
    await (await handler({ url: `${server.url}/` })).search(searchQuery('q'));
    expect(server.requests[0]!.path).toBe('/search');
  });

  test('JSON output disabled (403) is an error that says how to fix it', async () => {
    server.jsonEnabled = false;
    const search = await handler();
    expect((await rejection(search.search(searchQuery('q')))).message).toBe(
      'the instance refuses JSON output (HTTP 403): add `json` to search.formats in its settings.yml',
    );
    expect(search.status()).toMatchObject({
      state: 'failing',
      endpoint: `${server.url}/search`,
      lastError: { message: expect.stringContaining('HTTP 403') },
    });
  });

  test('no results because its engines failed is an error naming them; no results otherwise is an answer', async () => {
    server.failingEngines = [
      ['google', 'Suspended: CAPTCHA'],
      ['bing', 'timeout'],
    ];
    expect(await rejection((await handler()).search(searchQuery('q')))).toMatchObject({
      message: 'no results because its engines failed: google (Suspended: CAPTCHA), bing (timeout)',
    });
    server.failingEngines = [];
    server.results = () => [];
    expect(await (await handler()).search(searchQuery('nothing'))).toEqual({ hits: [] });
    server.results = () => someResults(35);
  });

  test('a region alone cannot be applied and says so', async () => {
    const answer = await (await handler()).search(searchQuery('q', { country: 'fr' }));
    expect(answer.warnings).toEqual(['country is applied only together with lang (SearXNG takes a locale such as de-CH); ignored']);
    expect(server.requests[0]!.query.has('language')).toBe(false);
  });

  test("the limiter's 429 pauses the provider; it is not asked again meanwhile", async () => {
    server.script(searxngTooManyRequests);
    const search = await handler();
    const first = await rejection(search.search(searchQuery('q')));
    expect(first).toMatchObject({ message: 'rate limited (HTTP 429); retry after 60 s', retryAfterSeconds: 60 });
    expect(search.status()).toMatchObject({ state: 'rate_limited', retryAt: expect.any(String) });
    const second = await rejection(search.search(searchQuery('q')));
    expect(second.message).toMatch(/^not asked: rate limited until \d{4}-/);
    expect(server.requests).toHaveLength(1);
  });

  test('an answer that is not JSON, and an unreachable instance, are errors', async () => {
    server.script(() => new Response('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } }));
    expect((await rejection((await handler()).search(searchQuery('q')))).message).toBe(
      'answered HTTP 200 with a text/html body that is not JSON',
    );
    const gone = startSearxngServer();
    const url = gone.url;
    await gone.stop();
    expect((await rejection((await providerHandler(searxngSearch, { url })).search(searchQuery('q')))).message).toMatch(
      /^could not reach 127\.0\.0\.1:\d+: connection refused/,
    );
  });

  test('a later page failing keeps the first page with a warning', async () => {
    const firstPage = () => Response.json({ results: someResults(10).map((r) => ({ url: r.url, title: r.title, content: r.snippet })) });
    server.script(firstPage, () => new Response('Internal Server Error', { status: 500 }));
    const answer = await (await handler()).search(searchQuery('q', { limit: 20 }));
    expect(answer.hits).toHaveLength(10);
    expect(answer.warnings).toEqual(['results page 2 failed, 10 results kept: HTTP 500']);
  });
});
