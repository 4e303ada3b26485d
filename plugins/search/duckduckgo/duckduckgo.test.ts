// search.duckduckgo against DuckDuckGo's HTML endpoint as it behaves (test/servers/duckduckgo.ts),
// through the real plugin and core HTTP client: the form it posts, redirect links decoded, ads left
// out, regions, and the bot check (CAPTCHA) page reported as an error, never as zero results.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { providerHandler, rejection, searchQuery, someResults } from '../../../core/testing.ts';
import { startDuckDuckGoServer } from '../../../test/servers/duckduckgo.ts';
import { duckduckgoSearch, duckRegion, targetOf } from './duckduckgo.ts';

const server = startDuckDuckGoServer({ results: () => someResults(40) });
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
  server.botCheck = false;
});

const handler = () => providerHandler(duckduckgoSearch, { baseUrl: server.url });

describe('search.duckduckgo', () => {
  test('posts the form and reads the result blocks: redirects decoded, ads left out', async () => {
    server.results = () => [
      { url: 'https://example.org/a?x=1&y=2', title: 'Tidal & wave', snippet: 'Turbines on the seabed' },
      ...someResults(3),
    ];
    const answer = await (await handler()).search(searchQuery('tidal power', { country: 'de', language: 'de' }));
    expect(answer.hits[0]).toEqual({
      url: 'https://example.org/a?x=1&y=2',
      title: 'Tidal & wave',
      description: 'Turbines on the seabed',
      position: 1,
    });
    expect(answer.hits.map((h) => h.url)).not.toContainEqual(expect.stringContaining('y.js'));
    expect(answer.hits).toHaveLength(4);
    const [request] = server.requests;
    expect([request!.method, request!.path, request!.headers['content-type']]).toEqual([
      'POST',
      '/html/',
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ q: 'tidal power', kl: 'de-de' });
    server.results = () => someResults(40);
  });

  test('keeps to the limit from the first page', async () => {
    expect((await (await handler()).search(searchQuery('q', { limit: 50 }))).hits).toHaveLength(30);
    expect((await (await handler()).search(searchQuery('q', { limit: 7 }))).hits.map((h) => h.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test('the bot check page (HTTP 202, anomaly modal) is an error, not zero results', async () => {
    server.botCheck = true;
    const search = await handler();
    expect((await rejection(search.search(searchQuery('q')))).message).toBe(
      'answered with its bot check (CAPTCHA, HTTP 202) instead of results, as it does for data-centre addresses: use SearXNG or a keyed provider',
    );
    expect(search.status()).toMatchObject({ state: 'failing', lastError: { message: expect.stringContaining('CAPTCHA') } });
  });

  test('"No results." is an empty answer; a page without results or that notice is an error', async () => {
    server.results = () => [];
    expect(await (await handler()).search(searchQuery('zzzz'))).toEqual({ hits: [] });
    server.results = () => someResults(40);
    server.script(() => new Response('<html><body><div id="links"></div></body></html>', { headers: { 'content-type': 'text/html' } }));
    expect((await rejection((await handler()).search(searchQuery('q')))).message).toBe(
      'the page holds neither results nor a "no results" notice (its layout may have changed)',
    );
  });

  test('regions and redirect targets', () => {
    expect(duckRegion({})).toEqual({ kl: 'wt-wt' });
    expect(duckRegion({ country: 'gb' })).toEqual({ kl: 'uk-en' });
    expect(duckRegion({ country: 'ch', language: 'fr' })).toEqual({ kl: 'ch-fr' });
    expect(duckRegion({ country: 'fr' })).toEqual({ kl: 'fr-fr' });
    expect(duckRegion({ language: 'de' }).warning).toContain('lang is applied only together with country');
    expect(targetOf('//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fp%3Fq%3D1&rut=x')).toBe('https://a.example/p?q=1');
    expect(targetOf('https://duckduckgo.com/y.js?ad_domain=x')).toBeNull();
    expect(targetOf('https://direct.example/')).toBe('https://direct.example/');
  });
});
