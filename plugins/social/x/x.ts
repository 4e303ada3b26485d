/**
 * `social.x`: the network's official API v2 (app-only bearer token) through twitter-api-v2, sent
 * over Trawl's HTTP client (transport.ts). Profile posts come from `/2/users/:id/tweets`, searches
 * and reply threads (`conversation_id:`) from `/2/tweets/search/recent`, both with `since_id`;
 * list timelines have no `since_id`, so they are paged from the newest until a post at or below
 * the cursor. The cursor is the first page's `newest_id`; at most `maxPages` pages are read per
 * check, so a burst beyond that is skipped rather than delaying every later check (logged).
 * Filters the API can apply are sent as operators or `exclude`; the monitor feature re-checks them.
 * Audience pages come from `/2/users/:id/followers|following`, 1000 users each. Enabled by setting
 * `bearerToken`.
 */
import { z } from 'zod';
import { definePlugin, Tokens, TrawlError } from '../../../core/kit.ts';
import type { SocialPostsQuery, SocialUser } from '../../../core/kit.ts';
import { postsOf, type TimelinePage, userOf } from './posts.ts';
import { transportClient } from './transport.ts';

const TWEET_FIELDS = 'created_at,lang,public_metrics,referenced_tweets,conversation_id,author_id,note_tweet';
const EXPANSIONS = 'author_id,referenced_tweets.id,referenced_tweets.id.author_id';
const USER_FIELDS = 'username,name,description,url,entities,public_metrics';
const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

/** Search operators for the filters the query language has (keyword and likes are checked by the feature). */
function searchQueryOf(query: SocialPostsQuery): string {
  const base = query.kind === 'replies' ? `conversation_id:${query.target}` : `(${query.target})`;
  const { filters } = query;
  const operators = [
    !filters.includeRetweets && '-is:retweet',
    !filters.includeReplies && query.kind !== 'replies' && '-is:reply',
    !filters.includeQuotes && '-is:quote',
    filters.lang && `lang:${filters.lang}`,
  ];
  return [base, ...operators.filter(Boolean)].join(' ');
}

export const xSocial = definePlugin({
  kind: 'social',
  name: 'x',
  description: "The social network's official API v2 with an app-only bearer token; enabled by setting `bearerToken`.",
  enabledBy: ['bearerToken'],
  options: z.strictObject({
    bearerToken: z.string().trim().min(1).optional().describe('App-only bearer token; setting it enables the source.'),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .default('https://api.x.com')
      .describe('Where requests go (a proxy, or a local test server).'),
    timeoutMs: z.number().int().min(100).max(120_000).default(15_000).describe('Time limit of one request.'),
    maxPages: z.number().int().min(1).max(20).default(5).describe('Pages of up to 100 posts read per monitor check.'),
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const client = (signal: AbortSignal) =>
      transportClient({ http, bearerToken: options.bearerToken!, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs }, signal).v2;

    async function timeline(query: SocialPostsQuery): Promise<TimelinePage[]> {
      const api = client(query.signal);
      const first = query.since === null;
      const common: Record<string, string> = { 'tweet.fields': TWEET_FIELDS, expansions: EXPANSIONS, 'user.fields': 'username,name' };
      const pages: TimelinePage[] = [];
      let token: string | undefined;
      for (let n = 0; n < (first ? 1 : options.maxPages); n++) {
        let page: TimelinePage;
        if (query.kind === 'list') {
          page = await api.get(`lists/${query.target}/tweets`, {
            ...common,
            max_results: first ? 10 : 100,
            ...(token ? { pagination_token: token } : {}),
          });
        } else if (query.kind === 'profile') {
          const exclude = [!query.filters.includeRetweets && 'retweets', !query.filters.includeReplies && 'replies']
            .filter(Boolean)
            .join(',');
          page = await api.get(`users/${query.target}/tweets`, {
            ...common,
            max_results: first ? 5 : 100,
            ...(exclude ? { exclude } : {}),
            ...(query.since ? { since_id: query.since } : {}),
            ...(token ? { pagination_token: token } : {}),
          });
        } else {
          page = await api.get('tweets/search/recent', {
            ...common,
            query: searchQueryOf(query),
            max_results: first ? 10 : 100,
            ...(query.since ? { since_id: query.since } : {}),
            ...(token ? { next_token: token } : {}),
          });
        }
        pages.push(page);
        const data = page.data ?? [];
        // A list has no since_id: stop at the first page that reaches what was seen.
        if (query.kind === 'list' && query.since && data.some((t) => !newer(t.id, query.since!))) break;
        token = page.meta?.next_token;
        if (!token) break;
        if (n === options.maxPages - 1 && !first)
          ctx.logger.warn({ kind: query.kind, target: query.target }, 'more new posts than the page cap; the oldest of them are skipped');
      }
      return pages;
    }

    return {
      async resolveHandle(handle, signal) {
        if (!/^[A-Za-z0-9_]{1,15}$/.test(handle))
          throw new TrawlError('bad_request', `"${handle}" is not a valid handle (1 to 15 letters, digits or _)`);
        const answer = (await client(signal).get(`users/by/username/${handle}`, { 'user.fields': 'username' })) as {
          data?: { id: string };
        };
        // An unknown or suspended account is a 200 with only `errors`.
        if (!answer.data?.id) throw new TrawlError('not_found', `The social account @${handle} was not found`);
        return answer.data.id;
      },

      async posts(query) {
        const pages = await timeline(query);
        const newest = pages[0]?.meta?.newest_id ?? pages[0]?.data?.[0]?.id ?? null;
        const posts = postsOf(pages).filter(
          (p) => (query.since === null || newer(p.id, query.since)) && !(query.kind === 'replies' && p.id === query.target),
        );
        return { posts, cursor: newest && (!query.since || newer(newest, query.since)) ? newest : query.since };
      },

      async audience(userId, direction, page, signal) {
        const answer = (await client(signal).get(`users/${userId}/${direction}`, {
          max_results: 1000,
          'user.fields': USER_FIELDS,
          ...(page ? { pagination_token: page } : {}),
        })) as { data?: unknown[]; meta?: { next_token?: string } };
        const users: SocialUser[] = (answer.data ?? []).map((u) => userOf(u as never));
        return { users, next: answer.meta?.next_token ?? null };
      },
    };
  },
});
