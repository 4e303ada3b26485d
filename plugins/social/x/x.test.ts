// social.x through twitter-api-v2 and the core HTTP client against a protocol-faithful API v2
// (test/servers/x-api.ts): handle lookup, since_id polling and its cursor, the list timeline's own
// high-water mark, reply threads, server-side filters, audience paging and rate limits.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import type { SocialFilters, SocialPostsQuery } from '../../../core/kit.ts';
import { providerHandler } from '../../../core/testing.ts';
import { startXApiServer, X_TEST_TOKEN } from '../../../test/servers/x-api.ts';
import { xSocial } from './x.ts';

const api = startXApiServer();
afterAll(() => api.stop());

const id = (n: number) => String(1_800_000_000_000_000_000n + BigInt(n));
const all: SocialFilters = { includeRetweets: true, includeReplies: true, includeQuotes: true, minFaves: 0, keyword: null, lang: null };

const source = (token = X_TEST_TOKEN) => providerHandler(xSocial, { bearerToken: token, baseUrl: api.url, maxPages: 3 });
const query = (q: Partial<SocialPostsQuery>): SocialPostsQuery => ({
  kind: 'profile',
  target: '42',
  since: null,
  filters: all,
  signal: new AbortController().signal,
  ...q,
});

beforeEach(() => {
  api.users.splice(
    0,
    Infinity,
    { id: '42', username: 'Alice', name: 'Alice A' },
    { id: '43', username: 'bob', name: 'Bob', description: 'bio', followers_count: 7 },
  );
  api.tweets.splice(0, Infinity);
  for (let n = 1; n <= 12; n++) api.tweets.push({ id: id(n), author_id: '42', text: `post ${n}`, like_count: n });
  api.requests.length = 0;
  api.remaining = 1000;
});

describe('social.x', () => {
  test('resolves a handle; an unknown one (200 with only errors) is not_found, a malformed one a 400', async () => {
    const x = await source();
    expect(await x.resolveHandle('alice', new AbortController().signal)).toBe('42');
    await expect(x.resolveHandle('nobody', new AbortController().signal)).rejects.toMatchObject({ code: 'not_found' });
    await expect(x.resolveHandle('a b', new AbortController().signal)).rejects.toMatchObject({ code: 'bad_request' });
  });

  test('a first poll reads the newest page only; later polls read every page since the cursor, oldest first', async () => {
    const x = await source();
    const first = await x.posts(query({}));
    expect(first.cursor).toBe(id(12));
    for (let n = 13; n <= 130; n++)
      api.tweets.push({ id: id(n), author_id: '42', text: `post ${n}`, refs: n === 20 ? [{ type: 'replied_to', id: id(1) }] : undefined });
    const next = await x.posts(query({ since: first.cursor }));
    expect(next.posts.map((p) => p.id)).toEqual(Array.from({ length: 118 }, (_, i) => id(i + 13)));
    expect(next.cursor).toBe(id(130));
    expect(next.posts[0]).toMatchObject({ screenName: 'Alice', url: `https://x.com/Alice/status/${id(13)}`, isReply: false });
    expect(next.posts.find((p) => p.id === id(20))!.isReply).toBe(true);
    const timelineCalls = api.requests.filter((r) => r.path === '/2/users/42/tweets');
    expect(timelineCalls[1]!.query.get('since_id')).toBe(first.cursor);
    expect(timelineCalls[2]!.query.get('pagination_token')!.length).toBeGreaterThanOrEqual(16);
    // Nothing new: the cursor stays.
    expect(await x.posts(query({ since: id(130) }))).toEqual({ posts: [], cursor: id(130) });
  });

  test('filters the API can apply are sent as exclude and search operators', async () => {
    const x = await source();
    await x.posts(query({ since: id(1), filters: { ...all, includeRetweets: false, includeReplies: false } }));
    expect(api.requests.at(-1)!.query.get('exclude')).toBe('retweets,replies');
    await x.posts(query({ kind: 'search', target: 'post', since: id(1), filters: { ...all, includeQuotes: false, lang: 'de' } }));
    expect(api.requests.at(-1)!.query.get('query')).toBe('(post) -is:quote lang:de');
  });

  test('a reply thread is a conversation search without its root; a list pages down to the cursor', async () => {
    api.tweets.push({ id: id(50), author_id: '43', text: 'reply', conversation_id: id(3), refs: [{ type: 'replied_to', id: id(3) }] });
    api.tweets[2]!.conversation_id = id(3);
    const x = await source();
    const replies = await x.posts(query({ kind: 'replies', target: id(3), since: id(3) }));
    expect(replies.posts.map((p) => [p.id, p.screenName, p.isReply])).toEqual([[id(50), 'bob', true]]);
    api.lists.set(
      '7',
      api.tweets.map((t) => t.id),
    );
    const list = await x.posts(query({ kind: 'list', target: '7', since: id(10) }));
    expect(list.posts.map((p) => p.id)).toEqual([id(11), id(12), id(50)]);
    expect(api.requests.at(-1)!.query.has('since_id')).toBe(false);
  });

  test('audience pages follow pagination_token until the end', async () => {
    for (let n = 0; n < 1500; n++) api.users.push({ id: String(1000 + n), username: `u${n}`, name: `U ${n}`, followers_count: n });
    api.followers.set(
      '42',
      api.users.slice(2).map((u) => u.id),
    );
    const x = await source();
    const one = await x.audience('42', 'followers', null, new AbortController().signal);
    expect([one.users.length, one.users[0]]).toEqual([
      1000,
      { id: '1000', screenName: 'u0', name: 'U 0', followers: 0, description: '', url: '' },
    ]);
    const two = await x.audience('42', 'followers', one.next, new AbortController().signal);
    expect([two.users.length, two.next]).toEqual([500, null]);
  });

  test('a spent rate limit is rate_limited with the seconds until the reset; a bad token is an error that says so', async () => {
    api.remaining = 0;
    api.resetAt = Math.floor(Date.now() / 1000) + 120;
    const error = await (await source()).posts(query({})).catch((e) => e);
    expect(error).toMatchObject({ code: 'rate_limited' });
    expect(error.retryAfterSeconds).toBeGreaterThan(100);
    api.remaining = 1000;
    await expect((await source('wrong')).posts(query({}))).rejects.toThrow(
      'rejected the bearer token (HTTP 401: Unauthorized: Unauthorized)',
    );
  });
});
