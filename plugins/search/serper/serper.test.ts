// search.serper against a protocol-faithful Serper API (test/servers/serper.ts), through the real
// plugin and core HTTP client: key header, JSON body, ranking by Serper's `position`, and its
// documented errors (403 Unauthorized, 400 Not enough credits, 429) as errors.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { providerHandler, rejection, searchQuery, someResults } from '../../../core/testing.ts';
import { SERPER_TEST_KEY, serperNoCredits, serperTooMany, startSerperServer } from '../../../test/servers/serper.ts';
import { serperSearch } from './serper.ts';

const server = startSerperServer({ results: () => someResults(30) });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

const handler = (apiKey = SERPER_TEST_KEY) => providerHandler(serperSearch, { apiKey, baseUrl: server.url });

describe('search.serper', () => {
  test('posts the documented JSON with the key header and returns organic results in rank order', async () => {
    const answer = await (await handler()).search(searchQuery('tidal power', { limit: 12, country: 'de', language: 'de' }));
    expect(answer.hits).toHaveLength(12);
    expect(answer.hits[0]).toEqual({ url: 'https://example.com/page1', title: 'Page 1', description: 'About page 1', position: 1 });
    const [request] = server.requests;
    expect([request!.method, request!.path, request!.headers['x-api-key'], request!.headers['content-type']]).toEqual([
      'POST',
      '/search',
      SERPER_TEST_KEY,
      'application/json',
    ]);
    expect(JSON.parse(request!.body)).toEqual({ q: 'tidal power', num: 12, gl: 'de', hl: 'de' });
  });

  test("ranks by Serper's position even when the list comes in another order", async () => {
    server.script(() =>
      Response.json({
        searchParameters: { q: 'q' },
        organic: [
          { title: 'Second', link: 'https://b.example/', snippet: '', position: 2 },
          { title: 'First', link: 'https://a.example/', snippet: '', position: 1 },
        ],
      }),
    );
    expect((await (await handler()).search(searchQuery('q'))).hits.map((h) => [h.title, h.position])).toEqual([
      ['First', 1],
      ['Second', 2],
    ]);
  });

  test('nothing found (no `organic`) is an empty answer; JSON of another shape is an error', async () => {
    server.results = () => [];
    expect(await (await handler()).search(searchQuery('zzzz'))).toEqual({ hits: [] });
    server.results = () => someResults(30);
    server.script(() => Response.json({ message: 'something else' }));
    expect((await rejection((await handler()).search(searchQuery('q')))).message).toBe('answered JSON without an `organic` list');
  });

  test('a wrong key, a spent balance and a rate limit are errors that say so', async () => {
    expect((await rejection((await handler('nope')).search(searchQuery('q')))).message).toBe(
      'the API key was rejected (HTTP 403: Unauthorized.)',
    );
    server.script(serperNoCredits);
    expect((await rejection((await handler()).search(searchQuery('q')))).message).toBe('HTTP 400: Not enough credits');
    server.script(serperTooMany(30));
    expect(await rejection((await handler()).search(searchQuery('q')))).toMatchObject({
      message: 'rate limited (HTTP 429: Too many requests); retry after 30 s',
      retryAfterSeconds: 30,
    });
  });
});
