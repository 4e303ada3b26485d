// social.rss against feeds on a loopback bridge: Nitter-style RSS and an Atom feed, ids and
// authors from the status links, the cursor, repost/reply prefixes, and kinds without a template.
import { afterAll, describe, expect, test } from 'bun:test';
import type { SocialFilters } from '../../../core/kit.ts';
import { providerHandler } from '../../../core/testing.ts';
import { rssSocial } from './rss.ts';

const item = (user: string, id: number, title: string) =>
  `<item><title>${title}</title><link>https://bridge.example/${user}/status/${id}#m</link><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate></item>`;
let items = [
  item('harbour', 101, 'first'),
  item('harbour', 103, 'RT by @harbour: boats'),
  item('harbour', 102, 'R to @fleet: yes &amp; no'),
];
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/harbour/rss')
      return new Response(`<?xml version="1.0"?><rss version="2.0"><channel><title>h</title>${items.join('')}</channel></rss>`, {
        headers: { 'content-type': 'application/rss+xml' },
      });
    if (url.pathname === '/search')
      return new Response(
        `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>tide ${url.searchParams.get('q')}</title><link href="https://bridge.example/fleet/status/7"/><updated>2026-11-24T10:00:00Z</updated></entry></feed>`,
      );
    return new Response('nope', { status: 404 });
  },
});
afterAll(() => server.stop(true));

const all: SocialFilters = { includeRetweets: true, includeReplies: true, includeQuotes: true, minFaves: 0, keyword: null, lang: null };
const source = () =>
  providerHandler(rssSocial, {
    profileUrl: `http://127.0.0.1:${server.port}/{target}/rss`,
    searchUrl: `http://127.0.0.1:${server.port}/search?q={target}`,
  });
const signal = new AbortController().signal;

describe('social.rss', () => {
  test('posts from a feed, oldest first, with ids, authors and repost/reply flags; the cursor moves', async () => {
    const rss = await source();
    const first = await rss.posts({
      kind: 'profile',
      target: await rss.resolveHandle('harbour', signal),
      since: null,
      filters: all,
      signal,
    });
    expect(first.posts.map((p) => [p.id, p.screenName, p.text, p.isRetweet, p.isReply])).toEqual([
      ['101', 'harbour', 'first', false, false],
      ['102', 'harbour', 'R to @fleet: yes & no', false, true],
      ['103', 'harbour', 'RT by @harbour: boats', true, false],
    ]);
    expect([first.cursor, first.posts[0]!.url, first.posts[0]!.createdAt]).toEqual([
      '103',
      'https://bridge.example/harbour/status/101',
      '2026-11-24T10:00:00.000Z',
    ]);
    items = [item('harbour', 104, 'new'), ...items];
    expect(await rss.posts({ kind: 'profile', target: 'harbour', since: '103', filters: all, signal })).toMatchObject({
      posts: [{ id: '104' }],
      cursor: '104',
    });
  });

  test('Atom feeds for searches; a kind without a template and audience export are refused', async () => {
    const rss = await source();
    expect(
      (await rss.posts({ kind: 'search', target: 'low water', since: null, filters: all, signal })).posts.map((p) => [
        p.id,
        p.screenName,
        p.text,
      ]),
    ).toEqual([['7', 'fleet', 'tide low water']]);
    await expect(rss.posts({ kind: 'list', target: '1', since: null, filters: all, signal })).rejects.toThrow(
      'set plugins.social.rss.listUrl',
    );
    await expect(rss.audience('1', 'followers', null, signal)).rejects.toMatchObject({ code: 'capability_missing' });
  });
});
