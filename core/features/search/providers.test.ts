// The provider chain (askProviders) and the hit list it hands on (cleanHits), with providers that
// answer, fail, find nothing or are rate limited; and the country and language checks.
import { describe, expect, test } from 'bun:test';
import { TrawlError } from '../../errors.ts';
import type { SearchAnswer, SearchHandler, SearchHit } from '../../plugin.ts';
import { askProviders, cleanHits, type Provider } from './providers.ts';
import { searchRequestSchema } from './request.ts';

const hit = (url: string, position = 1): SearchHit => ({ url, title: `T ${url}`, description: 'd', position });
const provider = (id: string, answer: () => Promise<SearchAnswer>): Provider & { asked: number } => {
  const p = { id, asked: 0, handler: {} as SearchHandler };
  p.handler = {
    search: () => {
      p.asked++;
      return answer();
    },
    status: () => ({ state: 'ok', endpoint: 'x' }),
  };
  return p;
};
const failing = (id: string, message: string, retryAfterSeconds?: number) =>
  provider(id, async () => {
    throw new TrawlError('bad_gateway', message, { retryAfterSeconds });
  });
const query = (limit = 5) => ({ query: 'q', limit, signal: new AbortController().signal });

describe('askProviders', () => {
  test('the first provider with results wins; the ones after it are not asked', async () => {
    const second = provider('search.b', async () => ({ hits: [hit('https://b.example/')] }));
    const answer = await askProviders([provider('search.a', async () => ({ hits: [hit('https://a.example/')] })), second], query());
    expect(answer).toEqual({ provider: 'search.a', hits: [hit('https://a.example/')], warnings: [] });
    expect(second.asked).toBe(0);
  });

  test('failures and empty answers hand over to the next, each reported in order', async () => {
    const answer = await askProviders(
      [
        failing('search.a', 'the API key was rejected (HTTP 401)'),
        provider('search.b', async () => ({ hits: [] })),
        provider('search.c', async () => ({ hits: [hit('https://c.example/')], warnings: ['lang is not supported; ignored'] })),
      ],
      query(),
    );
    expect(answer.provider).toBe('search.c');
    expect(answer.warnings).toEqual([
      'search.a: the API key was rejected (HTTP 401)',
      'search.b: no results for this query',
      'search.c: lang is not supported; ignored',
    ]);
  });

  test('everyone answering with nothing is an empty answer that says so', async () => {
    const answer = await askProviders([failing('search.a', 'HTTP 500'), provider('search.b', async () => ({ hits: [] }))], query());
    expect(answer).toEqual({ provider: 'search.b', hits: [], warnings: ['search.a: HTTP 500', 'search.b: no results for this query'] });
  });

  test('everyone failing is a 502 with every reason; everyone rate limited a 503 with the soonest Retry-After', async () => {
    const failed = await askProviders([failing('search.a', 'HTTP 500'), failing('search.b', 'rate limited', 30)], query()).catch((e) => e);
    expect([failed.status, failed.message, failed.retryAfterSeconds]).toEqual([
      502,
      'Every search provider failed: search.a: HTTP 500; search.b: rate limited',
      undefined,
    ]);
    const limited = await askProviders([failing('search.a', 'rate limited', 30), failing('search.b', 'rate limited', 7)], query()).catch(
      (e) => e,
    );
    expect([limited.status, limited.retryAfterSeconds]).toEqual([503, 7]);
    expect(limited.message).toStartWith('Every search provider is rate limited: search.a: rate limited; search.b');
  });

  test('a caller that went away stops the chain', async () => {
    const controller = new AbortController();
    const second = provider('search.b', async () => ({ hits: [hit('https://b.example/')] }));
    const first = provider('search.a', async () => {
      controller.abort(new TrawlError('timeout', 'gone'));
      throw new Error('aborted');
    });
    await expect(askProviders([first, second], { ...query(), signal: controller.signal })).rejects.toThrow('gone');
    expect(second.asked).toBe(0);
  });
});

describe('cleanHits', () => {
  test("one entry per page (the URL module's key), http(s) only, at most the limit, positions renumbered", () => {
    const { hits, dropped } = cleanHits(
      [
        hit('https://a.example/page/', 1),
        hit('https://a.example/page#top', 2),
        hit('ftp://files.example/x', 3),
        hit('magnet:?xt=urn:btih:abc', 4),
        hit('https://b.example/?b=2&a=1', 5),
        hit('https://b.example/?a=1&b=2', 6),
        hit('https://c.example/', 7),
        hit('https://d.example/', 8),
      ],
      3,
    );
    expect(hits.map((h) => [h.url, h.position])).toEqual([
      ['https://a.example/page/', 1],
      ['https://b.example/?b=2&a=1', 2],
      ['https://c.example/', 3],
    ]);
    expect(dropped).toBe(2);
  });

  test('titles and descriptions are single-line and bounded', () => {
    const [only] = cleanHits([{ url: 'https://a.example/', title: ' A\n  title ', description: 'x'.repeat(5000), position: 9 }], 5).hits;
    expect(only!.title).toBe('A title');
    expect(only!.description).toHaveLength(2000);
  });
});

describe('search request', () => {
  const parse = (body: Record<string, unknown>) => searchRequestSchema.safeParse({ query: 'q', ...body });

  test('defaults and normalised codes', () => {
    expect(parse({ country: 'DE', lang: 'De' }).data).toEqual({
      query: 'q',
      numResults: 5,
      scrape: true,
      formats: ['markdown'],
      country: 'de',
      lang: 'de',
      noCache: false,
    });
    expect(parse({ country: 'uk' }).data?.country).toBe('gb');
  });

  test.each([
    [{ query: '  ' }, 'must not be empty'],
    [{ query: 'word '.repeat(81) }, 'at most 400 characters'],
    [{ numResults: 0 }, 'expected number to be >=1'],
    [{ numResults: 51 }, 'expected number to be <=50'],
    [{ numResults: 2.5 }, 'expected int'],
    [{ country: 'usa' }, 'must be a two-letter country code'],
    [{ country: 'xx' }, 'unknown country code "xx"'],
    [{ country: 'eu' }, 'unknown country code "eu"'],
    [{ lang: 'english' }, 'must be a two-letter language code'],
    [{ lang: 'qq' }, 'unknown language code "qq"'],
    [{ formats: [] }, 'must list at least one format'],
    [{ nope: 1 }, 'Unrecognized key'],
  ])('%p is refused', (body, message) => {
    const result = parse(body);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toContain(message);
  });
});
