// search.tavily against a protocol-faithful Tavily API (test/servers/tavily.ts), through the real
// plugin and core HTTP client: Bearer key, JSON body with country names, the 20-result cap, the
// ignored language, and its documented errors (401, 429 with Retry-After, 432).
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { providerHandler, rejection, searchQuery, someResults } from '../../../core/testing.ts';
import { startTavilyServer, TAVILY_TEST_KEY, tavilyPlanLimit, tavilyTooMany } from '../../../test/servers/tavily.ts';
import { tavilySearch } from './tavily.ts';

const server = startTavilyServer({ results: () => someResults(30) });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

const handler = (apiKey = TAVILY_TEST_KEY) => providerHandler(tavilySearch, { apiKey, baseUrl: server.url });

describe('search.tavily', () => {
  test("posts the documented body with a Bearer key; a country becomes Tavily's country name", async () => {
    const answer = await (await handler()).search(searchQuery('tidal power', { limit: 3, country: 'gb' }));
    expect(answer).toEqual({
      hits: someResults(3).map((r, i) => ({ url: r.url, title: r.title, description: r.snippet, position: i + 1 })),
    });
    const [request] = server.requests;
    expect(request!.headers.authorization).toBe(`Bearer ${TAVILY_TEST_KEY}`);
    expect(JSON.parse(request!.body)).toEqual({
      query: 'tidal power',
      max_results: 3,
      search_depth: 'basic',
      topic: 'general',
      country: 'united kingdom',
    });
  });

  test('asks for at most 20; a language it cannot filter by is reported', async () => {
    const answer = await (await handler()).search(searchQuery('q', { limit: 50, language: 'fr' }));
    expect(answer.hits).toHaveLength(20);
    expect(answer.warnings).toEqual(['lang is not supported by Tavily; ignored']);
    expect(JSON.parse(server.requests[0]!.body).max_results).toBe(20);
  });

  test('documented errors are errors: bad key, rate limit with Retry-After, plan limit, a refused parameter', async () => {
    expect((await rejection((await handler('tvly-wrong')).search(searchQuery('q')))).message).toBe(
      'the API key was rejected (HTTP 401: Unauthorized: missing or invalid API key.)',
    );
    server.script(tavilyTooMany(20));
    expect(await rejection((await handler()).search(searchQuery('q')))).toMatchObject({
      retryAfterSeconds: 20,
      message: expect.stringMatching(/^rate limited \(HTTP 429: Your request has been blocked/),
    });
    server.script(tavilyPlanLimit);
    expect((await rejection((await handler()).search(searchQuery('q')))).message).toMatch(
      /^the plan's usage limit is reached \(HTTP 432: This request exceeds your plan's set usage limit/,
    );
    expect((await rejection((await handler()).search(searchQuery('q', { country: 'jp' })))).message).toBe(
      'HTTP 400: Invalid country: japan',
    );
  });
});
