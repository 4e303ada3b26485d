// search.brave against a protocol-faithful Brave Search API (test/servers/brave.ts), through the
// real plugin and core HTTP client: the key header and parameters, paging by offset, the language
// codes Brave spells its own way, and its documented errors (422 token invalid, 429 with the
// X-RateLimit-* headers) as errors rather than empty answers.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { providerHandler, rejection, searchQuery, someResults } from '../../../core/testing.ts';
import { BRAVE_TEST_KEY, braveQuotaLimited, braveRateLimited, startBraveServer } from '../../../test/servers/brave.ts';
import { braveResetSeconds, braveSearch } from './brave.ts';

const server = startBraveServer({ results: () => someResults(45) });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

const handler = (apiKey = BRAVE_TEST_KEY) => providerHandler(braveSearch, { apiKey, baseUrl: server.url });

describe('search.brave', () => {
  test('sends the key and the documented parameters; markup in snippets becomes text', async () => {
    server.results = () => [{ url: 'https://example.org/', title: 'Example', snippet: 'An <strong>example</strong> &amp; more' }];
    const answer = await (await handler()).search(searchQuery('tidal power', { limit: 5, country: 'gb', language: 'en' }));
    expect(answer.hits).toEqual([{ url: 'https://example.org/', title: 'Example', description: 'An example & more', position: 1 }]);
    const [request] = server.requests;
    expect(request!.headers['x-subscription-token']).toBe(BRAVE_TEST_KEY);
    expect(request!.headers.accept).toBe('application/json');
    expect(Object.fromEntries(request!.query)).toEqual({ q: 'tidal power', count: '5', offset: '0', country: 'GB', search_lang: 'en-gb' });
    server.results = () => someResults(45);
  });

  test('pages of 20 by offset, and stops when Brave has no more', async () => {
    expect((await (await handler()).search(searchQuery('q', { limit: 50 }))).hits).toHaveLength(45);
    expect(server.requests.map((r) => [r.query.get('count'), r.query.get('offset')])).toEqual([
      ['20', '0'],
      ['20', '1'],
      ['20', '2'],
    ]);
  });

  test('ISO languages Brave spells differently', async () => {
    const search = await handler();
    for (const [language, country, expected] of [
      ['ja', undefined, 'jp'],
      ['zh', 'tw', 'zh-hant'],
      ['pt', 'br', 'pt-br'],
      ['no', undefined, 'nb'],
      ['de', 'de', 'de'],
    ] as const) {
      await search.search(searchQuery('q', { language, country }));
      expect(server.requests.at(-1)!.query.get('search_lang')).toBe(expected);
    }
  });

  test('nothing found (no `web` in the answer) is an empty answer', async () => {
    server.results = () => [];
    expect(await (await handler()).search(searchQuery('zzzz'))).toEqual({ hits: [] });
    server.results = () => someResults(45);
  });

  test('a wrong key is 422 SUBSCRIPTION_TOKEN_INVALID: reported as a rejected key', async () => {
    expect((await rejection((await handler('wrong')).search(searchQuery('q')))).message).toBe(
      'the API key was rejected (HTTP 422: SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.)',
    );
  });

  test('429 waits for the exhausted window of X-RateLimit-Reset; a spent quota waits (at most an hour) too', async () => {
    server.script(braveRateLimited(7));
    const search = await handler();
    expect(await rejection(search.search(searchQuery('q')))).toMatchObject({
      message: 'rate limited (HTTP 429: RATE_LIMITED: Request rate limit exceeded for plan.); retry after 7 s',
      retryAfterSeconds: 7,
    });
    expect(search.status().state).toBe('rate_limited');
    server.script(braveQuotaLimited());
    const quota = await handler();
    expect((await rejection(quota.search(searchQuery('q')))).retryAfterSeconds).toBe(1_419_704);
    const pause = Date.parse(quota.status().retryAt!) - Date.now();
    expect(pause).toBeGreaterThan(3_500_000);
    expect(pause).toBeLessThanOrEqual(3_600_000);
    expect(braveResetSeconds({ 'x-ratelimit-remaining': '0, 100', 'x-ratelimit-reset': '1, 99' })).toBe(1);
    expect(braveResetSeconds({})).toBeUndefined();
  });

  test('a parameter Brave refuses is an error with its detail', async () => {
    expect((await rejection((await handler()).search(searchQuery('word '.repeat(60))))).message).toBe(
      'HTTP 422: VALIDATION: Unable to validate request parameter(s): q',
    );
  });
});
